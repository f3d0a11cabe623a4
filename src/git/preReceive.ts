// git's pre-receive hook for pushes to protected branches and tags. anvil decides, per push, what the pusher may do
// to each protected branch pattern (BranchProtectionService.pushRules) and hands the rules to the hook in
// ANVIL_BRANCH_RULES; the hook (POSIX sh, run by receive-pack once the pack is received) applies them to
// the pushed refs: it can tell a force push, which needs the pushed objects. Any refusal refuses the whole
// push, as git's pre-receive does, and the client sees the reason as "remote:" lines.
//
// Beside it, the reference-transaction hook journals every ref update receive-pack makes into the file
// named by ANVIL_PUSH_JOURNAL, one line per ref and state (`prepared`, then `committed` or `aborted`): the
// push is recorded from exactly what git did, whatever other pushes run at the same time. A journal that
// cannot be written refuses the update (a failing hook in the `prepared` state aborts the transaction), so
// no ref moves unrecorded.
//
// When the site enables git hooks (DISABLE_GIT_HOOKS=false), receive-pack is pointed at another folder,
// `$DATA_DIR/git-hooks-custom`, whose hooks also run the repository's own hooks (git/customHooks.ts: `hooks/<name>.d/<name>` in its folder) run where git
// runs its hooks: its pre-receive once anvil's checks passed, with the same input; its update once per ref,
// with git's three arguments; its post-receive once the refs moved. A custom pre-receive or update that exits
// non-zero refuses the push (or that ref), and what they print reaches the client as "remote:" lines. They
// run without anvil's variables (the journal's path, the rules), and with Gitea's (GITEA_PUSHER_NAME, …).
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// Runs the repository's custom hook $1 (when enabled and present) with the rest of the arguments and this stdin.
const runCustom = `custom() {
  hook="\${GIT_DIR:-.}/hooks/$1.d/$1"
  [ -f "$hook" ] || return 0
  shift
  (unset ANVIL_PUSH_JOURNAL ANVIL_BRANCH_RULES ANVIL_TAG_RULES; exec "$hook" "$@")
}`;

const preReceive = `#!/bin/sh
# Written by anvil: its own checks (anvil-pre-receive), then the repository's custom pre-receive hook.
input=$(cat; echo .)
input=\${input%.}
printf '%s' "$input" | "$(dirname "$0")/anvil-pre-receive" || exit 1
${runCustom}
printf '%s' "$input" | custom pre-receive
`;

const update = `#!/bin/sh
# Written by anvil: the repository's custom update hook, per ref (git's arguments: ref, old, new).
${runCustom}
custom update "$@"
`;

const postReceive = `#!/bin/sh
# Written by anvil: the repository's custom post-receive hook, once the refs moved.
${runCustom}
custom post-receive
`;

const script = `#!/bin/sh
# Written by anvil: refuses pushes to protected branches and tags. Rules: one per line, "<mode><TAB><regexp>",
# first match wins; mode deny (no push), noforce (fast-forwards only) or force; deletion always refused.
# Tag rules (ANVIL_TAG_RULES): "<allow|deny><TAB><regexp>", first match wins; deny refuses any change of the tag.
[ -n "$ANVIL_BRANCH_RULES$ANVIL_TAG_RULES" ] || exit 0
tab=$(printf '\\t')
status=0
while read -r old new ref; do
  case "$ref" in
    refs/tags/*)
      tag=\${ref#refs/tags/}
      [ -n "$ANVIL_TAG_RULES" ] || continue
      while IFS="$tab" read -r m pattern; do
        [ -n "$m" ] || continue
        if printf '%s\\n' "$tag" | grep -Eq -e "$pattern"; then
          [ "$m" = deny ] && { echo "anvil: tag $tag is protected" >&2; status=1; }
          break
        fi
      done <<RULES
$ANVIL_TAG_RULES
RULES
      continue ;;
    refs/heads/*) branch=\${ref#refs/heads/} ;;
    *) continue ;;
  esac
  [ -n "$ANVIL_BRANCH_RULES" ] || continue
  mode=
  while IFS="$tab" read -r m pattern; do
    [ -n "$m" ] || continue
    if printf '%s\\n' "$branch" | grep -Eq "^($pattern)\\$"; then mode=$m; break; fi
  done <<RULES
$ANVIL_BRANCH_RULES
RULES
  [ -n "$mode" ] || continue
  case "$new" in
    *[!0]*) ;;
    *) echo "anvil: branch $branch is protected from deletion" >&2; status=1; continue ;;
  esac
  if [ "$mode" = deny ]; then
    echo "anvil: you may not push to the protected branch $branch" >&2; status=1; continue
  fi
  case "$old" in *[!0]*) ;; *) continue ;; esac
  if [ "$mode" = noforce ] && ! git merge-base --is-ancestor "$old" "$new"; then
    echo "anvil: force pushes to the protected branch $branch are not allowed" >&2; status=1
  fi
done
exit $status
`;

const journalScript = `#!/bin/sh
# Written by anvil: journals the ref updates of a push (see src/git/preReceive.ts).
[ -n "$ANVIL_PUSH_JOURNAL" ] || exit 0
case "$1" in prepared|committed|aborted) ;; *) exit 0 ;; esac
lines=
while read -r old new ref; do lines="$lines$1 $old $new $ref
"; done
[ -n "$lines" ] || exit 0
printf '%s' "$lines" >> "$ANVIL_PUSH_JOURNAL" || exit 1
`;

function writeHook(dir: string, name: string, text: string): void {
  const file = join(dir, name);
  let current: string | undefined;
  try {
    current = readFileSync(file, 'utf8');
  } catch {
    current = undefined;
  }
  if (current !== text) {
    mkdirSync(dir, { recursive: true });
    // Through a temporary file and a rename: another process may be running the hook right now.
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, text, { mode: 0o755 });
    renameSync(tmp, file);
  }
}

/**
 * The hooks folder receive-pack is pointed at (core.hooksPath), (re)written when not as expected: anvil's own
 * hooks, or with `custom` (git hooks enabled) those that also run the repository's custom hooks. The
 * folder without them has no update or post-receive hook at all, so that git starts nothing per ref.
 */
export function hooksDir(dataDir: string, custom = false): string {
  if (!custom) {
    const dir = join(dataDir, 'git-hooks');
    writeHook(dir, 'pre-receive', script);
    writeHook(dir, 'reference-transaction', journalScript);
    return dir;
  }
  const dir = join(dataDir, 'git-hooks-custom');
  writeHook(dir, 'anvil-pre-receive', script);
  writeHook(dir, 'pre-receive', preReceive);
  writeHook(dir, 'update', update);
  writeHook(dir, 'post-receive', postReceive);
  writeHook(dir, 'reference-transaction', journalScript);
  return dir;
}
