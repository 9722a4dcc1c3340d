"""Client module."""
import os
import os.path
import requests
from collections import OrderedDict
from .util import helper
from ..pkg.sub import thing as other
import numpy as np, yaml

CRLF = "\r\n"

DEFAULTS = {
    "timeout": 10,
}
MAX_RETRIES = 3


# A base client.
class Client(BaseClient, metaclass=Meta):
    """A client.

    Sends requests.
    """

    retries = 3

    def __init__(self, url):
        self.url = url
        self.session = requests.Session()

    @retry(times=3)
    @staticmethod
    def send(self, request,
             timeout=None):
        """Send a request."""
        def inner(x):
            return helper(x)
        resp = self.session.post(self.url, data=request)
        return inner(resp)

    class Config(dict):
        def load(self, path):
            return os.path.join(path, "cfg")


def main():
    c = Client("http://x")
    c.send({})


@app.route("/x")
def handler():
    return main()


if __name__ == "__main__":
    main()
