package com.acme.service;

/** Shows users. */
public class UserController {
    private SampleService service;

    public User show(long id) {
        return service.findUserById(id);
    }
}
