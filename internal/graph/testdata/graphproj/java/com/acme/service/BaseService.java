package com.acme.service;

/** Base of all services. */
public abstract class BaseService {
    protected void audit(String what) {
        System.out.println(what);
    }
}
