// License detection (#38, repoGetLicenses): which SPDX licenses a repository's license files hold. No
// well-kept npm package classifies license texts (the npm license tools read package.json metadata), so
// the texts come from spdx-license-list (already our source of license templates) and the comparison is
// ours, the way licensee does it: both texts normalized, then the Sørensen–Dice similarity of their sets
// of word pairs; the closest license at or above the threshold wins.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** License files larger than this are not read (the longest SPDX texts are under 100 KB). */
export const maxLicenseFileBytes = 256 * 1024;

/** The least similarity at which a file is taken to hold a license. */
export const licenseThreshold = 0.9;

/** Root-level file names Gitea (go-license-detector) takes as license files, in any letter case. */
const licenseFileName = /^(?:un)?licen[cs]e(?:[-_.][a-z0-9.+-]*)?$|^copying(?:[-_.][a-z0-9.+-]*)?$|^[a-z0-9.+-]+[-_.]licen[cs]e(?:\.(?:md|markdown|txt|rst|html))?$/i;

export function isLicenseFileName(name: string): boolean {
  return licenseFileName.test(name);
}

/** Text reduced to its words: lower case, markup, punctuation, copyright lines and placeholders dropped. */
export function normalizeLicense(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/<[^>\n]{1,60}>|\[[^\]\n]{1,60}\]|\{[^}\n]{1,60}\}/g, ' ') // placeholders (<year>, [name of author])
    .split('\n')
    .filter((line) => !/^\s*(?:[#*>-]\s*)*(?:copyright\b|\(c\)|©)/.test(line)) // copyright notices
    .join(' ')
    .replace(/https?:\/\/\S+/g, (u) => u.replace(/^https?:\/\//, '').replace(/\/+$/, ''))
    .replace(/\blicence\b/g, 'license')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter((w) => w.length > 0);
}

function pairs(words: string[]): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i + 1 < words.length; i++) out.add(`${words[i]} ${words[i + 1]}`);
  return out;
}

function dice(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  const [small, big] = a.size <= b.size ? [a, b] : [b, a];
  let common = 0;
  for (const p of small) if (big.has(p)) common++;
  return (2 * common) / (a.size + b.size);
}

let known: { id: string; pairs: Set<string> }[] | undefined;

/** The SPDX texts as word-pair sets, built on first use (about 600 licenses). */
function templates(): { id: string; pairs: Set<string> }[] {
  if (!known) {
    const full = require('spdx-license-list/full') as Record<string, { licenseText: string }>;
    // SPDX's deprecated identifiers (`GPL-3.0+`, and `GPL-3.0` where `GPL-3.0-only` exists) share their
    // texts with the current ones and are left out; in name order, a tie goes to `-only` before `-or-later`.
    known = Object.entries(full)
      .filter(([id]) => !id.endsWith('+') && !Object.hasOwn(full, `${id}-only`))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([id, l]) => ({ id, pairs: pairs(normalizeLicense(l.licenseText)) }))
      .filter((t) => t.pairs.size > 0);
  }
  return known;
}

/** The SPDX identifier of the license a text holds, or undefined when none is close enough. */
export function detectLicense(text: string): string | undefined {
  const p = pairs(normalizeLicense(text));
  if (p.size === 0) return undefined;
  let best: { id: string; score: number } | undefined;
  for (const t of templates()) {
    // Dice cannot reach the threshold when the sizes differ too much; skip those without counting.
    const lo = Math.min(p.size, t.pairs.size), hi = Math.max(p.size, t.pairs.size);
    if ((2 * lo) / (lo + hi) < licenseThreshold) continue;
    const score = dice(p, t.pairs);
    if (score >= licenseThreshold && (!best || score > best.score)) best = { id: t.id, score };
  }
  return best?.id;
}
