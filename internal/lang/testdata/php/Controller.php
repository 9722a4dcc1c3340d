<?php

namespace App\Http;

use App\Models\User;
use Illuminate\Http\Request;

/**
 * Handles users.
 */
#[Route("/users")]
class UserController extends Controller implements JsonSerializable, Countable
{
    use LogsActivity;

    private $repo;

    public function __construct(UserRepository $repo)
    {
        $this->repo = $repo;
    }

    /** Show one user. */
    #[Get("/{id}")]
    public function show(int $id): User
    {
        $user = $this->repo->find($id);
        $this->authorize($user);
        return User::fromModel($user);
    }
}

interface Countable
{
    public function count(): int;
}

trait LogsActivity
{
    public function log($msg) { logger($msg); }
}

enum Suit: string
{
    case Hearts = 'H';
}

function helper($x) {
    return strtoupper($x);
}

const VERSION = "1.0";
