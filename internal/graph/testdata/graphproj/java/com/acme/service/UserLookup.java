package com.acme.service;

/** Looks users up. */
public interface UserLookup {
    User findUserById(long id);
}
