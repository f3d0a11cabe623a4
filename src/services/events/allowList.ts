// WEBHOOK_ALLOWED_HOST_LIST with Gitea's meaning: `external` (public addresses), `private`, `loopback`,
// `*` (anything), host globs (matched on the host name) and CIDRs (matched on the resolved address).
// The delivery connects to the address that was checked, so a DNS answer cannot change in between.
import { BlockList, isIP } from 'node:net';
import { globToRegExp } from './hookOptions.js';

const privateRanges = new BlockList();
for (const [net, bits] of [['10.0.0.0', 8], ['172.16.0.0', 12], ['192.168.0.0', 16], ['100.64.0.0', 10], ['169.254.0.0', 16]] as const) privateRanges.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [['fc00::', 7], ['fe80::', 10]] as const) privateRanges.addSubnet(net, bits, 'ipv6');
const loopbackRanges = new BlockList();
loopbackRanges.addSubnet('127.0.0.0', 8, 'ipv4');
loopbackRanges.addAddress('::1', 'ipv6');
const specialRanges = new BlockList();
for (const [net, bits] of [['0.0.0.0', 8], ['224.0.0.0', 4], ['240.0.0.0', 4]] as const) specialRanges.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [['::', 128], ['ff00::', 8]] as const) specialRanges.addSubnet(net, bits, 'ipv6');

const family = (ip: string) => (isIP(ip) === 6 ? 'ipv6' : 'ipv4');
/** An IPv4 address written as IPv6 (::ffff:a.b.c.d) is judged as IPv4. */
const unmap = (ip: string) => ip.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1');

/** What kind of address `ip` is: loopback, private (RFC 1918, link-local, ULA, CGNAT), special (unroutable, multicast) or external. */
export function addressKind(rawIp: string): 'loopback' | 'private' | 'special' | 'external' {
  const ip = unmap(rawIp);
  const fam = family(ip);
  if (loopbackRanges.check(ip, fam)) return 'loopback';
  if (privateRanges.check(ip, fam)) return 'private';
  if (specialRanges.check(ip, fam)) return 'special';
  return 'external';
}

export interface AllowList {
  /** Whether `host` (as written in the hook's URL) resolving to `ip` may be reached. */
  allows(host: string, ip: string): boolean;
}

export function parseAllowList(spec: string): AllowList {
  const entries = spec.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
  const cidrs = new BlockList();
  const hostGlobs: RegExp[] = [];
  const flags = new Set<string>();
  for (const e of entries) {
    if (['external', 'private', 'loopback', '*'].includes(e)) flags.add(e);
    else if (e.includes('/') && isIP(e.split('/')[0]!)) {
      const [net, bits] = e.split('/');
      cidrs.addSubnet(net!, Number(bits), family(net!));
    } else if (isIP(e)) cidrs.addAddress(e, family(e));
    else hostGlobs.push(globToRegExp(e));
  }
  return {
    allows(host, rawIp) {
      if (flags.has('*')) return true;
      const ip = unmap(rawIp);
      const fam = family(ip);
      if (hostGlobs.some((g) => g.test(host.toLowerCase().replace(/^\[|\]$/g, '')))) return true;
      if (cidrs.check(ip, fam)) return true;
      const loopback = loopbackRanges.check(ip, fam);
      const priv = privateRanges.check(ip, fam);
      if (loopback) return flags.has('loopback');
      if (priv) return flags.has('private');
      if (specialRanges.check(ip, fam)) return false;
      return flags.has('external');
    },
  };
}
