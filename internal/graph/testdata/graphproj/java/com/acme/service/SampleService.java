package com.acme.service;

import java.util.List;
import com.acme.repo.UserRepository;

/** Service for users. */
public class SampleService extends BaseService implements UserLookup {

    private final UserRepository repo;

    public SampleService(UserRepository repo) {
        this.repo = repo;
    }

    /** Finds a user by id. */
    public User findUserById(long id) {
        User u = repo.findById(id);
        return validate(u);
    }

    /** Finds a user by name. */
    public User findUserById(String name) {
        return validate(repo.findByName(name));
    }

    /** Finds several users. */
    public List<User> findUserById(List<Long> ids) {
        return repo.findAll(ids);
    }

    private User validate(User u) {
        audit("validate");
        return u;
    }

    static class Cache {
        void refresh() {
            reload();
        }

        class Entry {
            void touch() {
                refresh();
            }
        }
    }
}
