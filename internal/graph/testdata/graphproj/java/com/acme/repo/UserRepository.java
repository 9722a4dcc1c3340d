package com.acme.repo;

/** Stores users. */
public class UserRepository {
    public User findById(long id) {
        return null;
    }

    public User findByName(String name) {
        return null;
    }
}
