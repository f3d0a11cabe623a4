import { toRepository } from '../../../convert/repo.js';
import { actorOf } from '../../load.js';
import type { Handler } from '../../types.js';

const opt = <T>(v: T | null | undefined): T | undefined => (v === null ? undefined : v);

export const repoMigrate: Handler<'repoMigrate'> = async (req) => {
  const actor = actorOf(req);
  const b = req.body;
  const { repo, owner } = await req.services.migrations.migrate(actor, {
    cloneAddr: b.clone_addr, repoName: b.repo_name, repoOwner: opt(b.repo_owner) || undefined, uid: opt(b.uid) || undefined,
    service: opt(b.service) || undefined, authUsername: opt(b.auth_username), authPassword: opt(b.auth_password), authToken: opt(b.auth_token),
    description: opt(b.description), private: opt(b.private), mirror: opt(b.mirror), mirrorInterval: opt(b.mirror_interval), wiki: opt(b.wiki),
    milestones: opt(b.milestones), labels: opt(b.labels), issues: opt(b.issues), pullRequests: opt(b.pull_requests), releases: opt(b.releases),
    lfs: opt(b.lfs), lfsEndpoint: opt(b.lfs_endpoint),
  });
  const perm = await req.services.access.repoPermission(repo, owner, actor);
  const mirror = await req.services.mirrors.viewOf(repo);
  return { status: 201, body: toRepository(repo, owner, perm, actor, req.config, undefined, undefined, mirror) };
};
