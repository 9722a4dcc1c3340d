import { Injectable } from '@angular/core';
import type { User } from './models/user';
import * as path from 'path';

export interface Repository<T> extends Base, Closeable {
  find(id: string): Promise<T>;
}

export type UserId = string;

export enum Color {
  Red,
  Green,
}

/** The user service. */
@Injectable({ providedIn: 'root' })
export class UserService extends BaseService<User> implements Repository<User>, OnInit {
  private cache = new Map<string, User>();

  constructor(private readonly http: HttpClient) {
    super();
  }

  @Log()
  async find(id: string): Promise<User> {
    const u = await this.http.get<User>(`/users/${id}`);
    return this.cache.get(id) ?? u;
  }

  private onEvent = (e: Event): void => {
    this.find(e.id);
  };
}

export abstract class Shape {
  abstract area(): number;
}

namespace Geometry {
  export function distance(a: Point, b: Point): number {
    return Math.sqrt(a.x * b.x);
  }
}

export function create<T>(ctor: new () => T): T {
  return new ctor();
}

const enabled: boolean = true;

export class Outer {
  build() {
    class Inner extends Base {
      run() { this.go(); }
    }
    return new Inner();
  }
}
