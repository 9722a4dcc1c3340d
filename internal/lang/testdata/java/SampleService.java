package com.acme.service;

import java.util.List;
import java.util.Map;
import javax.inject.Inject;
import com.acme.repo.UserRepository;
import com.acme.model.*;
import static com.acme.util.Strings.trim;

/**
 * Service for users.
 * Handles lookups.
 */
@Service
@Transactional(readOnly = true)
public class SampleService extends BaseService<User> implements UserLookup, Auditable {

    private final UserRepository repo;
    private static final int LIMIT = 10;

    @Inject
    public SampleService(UserRepository repo) {
        super(repo);
        this.repo = repo;
    }

    /** Finds a user by id. */
    @Override
    public User findUserById(long id) {
        User u = repo.findById(id);
        log(UserRepository.describe(u));
        return validate(u);
    }

    private User validate(User u) {
        if (u == null) {
            throw new NotFoundException("missing");
        }
        return this.check(u);
    }

    // Inner cache.
    static class Cache implements Runnable {
        private Map<Long, User> entries;

        public void run() {
            entries.clear();
            refresh();
        }

        class Entry {
            void touch() { Cache.this.run(); }
        }
    }

    interface Listener {
        void onChange(User u);
    }

    enum Mode { FAST, SLOW;
        int weight() { return ordinal(); }
    }

    Runnable task() {
        return new Runnable() {
            @Override
            public void run() { execute(); }
        };
    }

    record Pair(String a, int b) {
        Pair {
            java.util.Objects.requireNonNull(a);
        }
    }
}

interface UserLookup extends Lookup<User>, Closeable {
    User findUserById(long id);
}
