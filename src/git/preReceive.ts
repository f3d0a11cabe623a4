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
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

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

/** The hooks folder receive-pack is pointed at (core.hooksPath), (re)written when not as expected. */
export function hooksDir(dataDir: string): string {
  const dir = join(dataDir, 'git-hooks');
  writeHook(dir, 'pre-receive', script);
  writeHook(dir, 'reference-transaction', journalScript);
  return dir;
}
