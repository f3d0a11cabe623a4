// The service container handed to every handler.
import { AccessService } from './access.js';
import { CollaboratorService } from './collaborators.js';
import type { ServiceDeps } from './context.js';
import { OrgService } from './orgs.js';
import { RepoService } from './repos.js';
import { TeamService } from './teams.js';
import { TokenService } from './tokens.js';
import { UserService } from './users.js';

export class Services {
  readonly users: UserService;
  readonly tokens: TokenService;
  readonly access: AccessService;
  readonly orgs: OrgService;
  readonly teams: TeamService;
  readonly repos: RepoService;
  readonly collaborators: CollaboratorService;
  constructor(readonly deps: ServiceDeps) {
    this.users = new UserService(deps);
    this.tokens = new TokenService(deps);
    this.access = new AccessService(deps);
    this.orgs = new OrgService(deps);
    this.teams = new TeamService(deps);
    this.repos = new RepoService(deps, this.access);
    this.collaborators = new CollaboratorService(deps, this.access);
  }
}
