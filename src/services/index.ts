// The service container handed to every handler.
import type { ServiceDeps } from './context.js';
import { TokenService } from './tokens.js';
import { UserService } from './users.js';

export class Services {
  readonly users: UserService;
  readonly tokens: TokenService;
  constructor(readonly deps: ServiceDeps) {
    this.users = new UserService(deps);
    this.tokens = new TokenService(deps);
  }
}
