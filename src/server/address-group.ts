import { isIPv6 } from 'node:net';

/** The first four groups of an IPv6 address written out, `::` expanded. */
function leadingGroups(address: string): string[] {
  const [head = '', tail] = address.split('::');
  const front = head ? head.split(':') : [];
  const back = tail ? tail.split(':') : [];
  const zeros = Array.from({ length: Math.max(0, 8 - front.length - back.length) }, () => '0');
  return [...front, ...(tail === undefined ? [] : zeros), ...back].slice(0, 4);
}

/**
 * Who a connection comes from, for a per-address limit: an IPv4 address as
 * is (also when mapped into IPv6, `::ffff:203.0.113.9`), an IPv6 address by
 * its /64, because one host is commonly given a whole /64 and could
 * otherwise take a fresh address for every connection.
 */
export function addressGroup(remoteAddress: string | undefined): string {
  if (!remoteAddress) return '';
  const address = remoteAddress.replace(/%.*$/, '').toLowerCase();
  if (address.startsWith('::ffff:') && !isIPv6(address.slice(7))) return address.slice(7);
  if (!isIPv6(address)) return address;
  return `${leadingGroups(address)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
