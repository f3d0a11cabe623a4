// git's pre-receive hook for pushes to protected branches. anvil decides, per push, what the pusher may do
// to each protected branch pattern (BranchProtectionService.pushRules) and hands the rules to the hook in
// ANVIL_BRANCH_RULES; the hook (POSIX sh, run by receive-pack once the pack is received) applies them to
// the pushed refs: it can tell a force push, which needs the pushed objects. Any refusal refuses the whole
// push, as git's pre-receive does, and the client sees the reason as "remote:" lines.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const script = `#!/bin/sh
# Written by anvil: refuses pushes to protected branches. Rules: one per line, "<mode><TAB><regexp>",
# first match wins; mode deny (no push), noforce (fast-forwards only) or force; deletion always refused.
[ -n "$ANVIL_BRANCH_RULES" ] || exit 0
tab=$(printf '\\t')
status=0
while read -r old new ref; do
  case "$ref" in refs/heads/*) branch=\${ref#refs/heads/} ;; *) continue ;; esac
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

/** The hooks folder receive-pack is pointed at (core.hooksPath), written once per data folder. */
export function hooksDir(dataDir: string): string {
  const dir = join(dataDir, 'git-hooks');
  const file = join(dir, 'pre-receive');
  let current: string | undefined;
  try {
    current = readFileSync(file, 'utf8');
  } catch {
    current = undefined;
  }
  if (current !== script) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, script, { mode: 0o755 });
  }
  return dir;
}
