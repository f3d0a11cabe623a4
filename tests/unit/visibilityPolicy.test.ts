// Who may see an organisation, its teams and a user (src/permissions/org.ts, users.ts), every
// combination against the rules as Gitea states them. The HTTP tests (orgGet, orgGetTeam, userGet…)
// check that the services ask these questions; this file pins the answers.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { UserRow, Visibility } from '../../src/db/schema/index.js';
import { canSeeOwner, canSeeTeam } from '../../src/permissions/org.js';
import { canManageUser, canSeeUser } from '../../src/permissions/users.js';

const visibilities: Visibility[] = ['public', 'limited', 'private'];
const person = (id: number, o: Partial<UserRow> = {}) => ({ id, isAdmin: false, isRestricted: false, visibility: 'public', ...o }) as UserRow;
type Kind = 'anonymous' | 'user' | 'restricted' | 'admin';
const viewers: Array<[Kind, UserRow | null]> = [
  ['anonymous', null], ['user', person(2)], ['restricted', person(3, { isRestricted: true })], ['admin', person(4, { isAdmin: true })],
];

test('canSeeOwner: public to all, limited to signed-in users who are not restricted, private to members; admins and members see all', () => {
  for (const vis of visibilities) {
    for (const [kind, user] of viewers) {
      for (const isMember of [false, true]) {
        if (!user && isMember) continue;
        const want = kind === 'admin' || isMember || vis === 'public' || (vis === 'limited' && (kind === 'user'));
        assert.is(canSeeOwner(vis, { user, isMember, isOwner: false }), want, `${vis} ${kind} member=${isMember}`);
      }
    }
  }
});

test('canSeeTeam: admins, org owners and team members see every team; else limited to org members, public to signed-in users, private to nobody', () => {
  for (const vis of visibilities) {
    for (const [kind, user] of viewers) {
      for (const isMember of [false, true]) {
        for (const isOwner of [false, true]) {
          for (const inTeam of [false, true]) {
            if (!user && (isMember || isOwner || inTeam)) continue;
            const want = kind === 'admin' || isOwner || inTeam || (vis === 'limited' && isMember) || (vis === 'public' && !!user);
            assert.is(canSeeTeam({ visibility: vis }, { user, isMember, isOwner, inTeam }), want, `${vis} ${kind} member=${isMember} owner=${isOwner} team=${inTeam}`);
          }
        }
      }
    }
  }
});

test('canSeeUser: public to all, limited to signed-in users who are not restricted, private to themselves and admins', () => {
  for (const vis of visibilities) {
    const target = person(10, { visibility: vis });
    for (const [kind, viewer] of viewers) {
      const want = vis === 'public' || kind === 'admin' || (vis === 'limited' && kind === 'user');
      assert.is(canSeeUser(viewer, target), want, `${vis} ${kind}`);
    }
    // Themselves, restricted or not.
    assert.ok(canSeeUser(target, target), `${vis} self`);
    assert.ok(canSeeUser(person(10, { isRestricted: true }), { ...target }), `${vis} restricted self`);
  }
});

test('canManageUser: the user themselves or a site admin, never anyone else', () => {
  const target = person(10);
  assert.not.ok(canManageUser(null, target));
  assert.not.ok(canManageUser(person(2), target));
  assert.not.ok(canManageUser(person(3, { isRestricted: true }), target));
  assert.ok(canManageUser(person(4, { isAdmin: true }), target));
  assert.ok(canManageUser(person(10), target));
});

test.run();
