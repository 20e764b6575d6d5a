// Which addresses WebFetch may connect to. The check is on the address the connection uses (the
// resolver's answer, every one of them, or the URL's literal), not on the host name's text, so a
// name that resolves to 127.0.0.1 is refused like 127.0.0.1 itself.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import { BlockList, isIP, type LookupFunction } from 'node:net'

/** Addresses that are not on the public internet: the user's machine, its networks, the cloud metadata service. */
const NON_PUBLIC: ReadonlyArray<[string, number, 'ipv4' | 'ipv6']> = [
  ['0.0.0.0', 8, 'ipv4'], // "this network"
  ['10.0.0.0', 8, 'ipv4'], // RFC 1918
  ['100.64.0.0', 10, 'ipv4'], // carrier-grade NAT (RFC 6598)
  ['127.0.0.0', 8, 'ipv4'], // loopback
  ['169.254.0.0', 16, 'ipv4'], // link-local, with the cloud metadata address 169.254.169.254
  ['172.16.0.0', 12, 'ipv4'], // RFC 1918
  ['192.0.0.0', 24, 'ipv4'], // IETF protocol assignments
  ['192.168.0.0', 16, 'ipv4'], // RFC 1918
  ['198.18.0.0', 15, 'ipv4'], // benchmarking
  ['224.0.0.0', 4, 'ipv4'], // multicast
  ['240.0.0.0', 4, 'ipv4'], // reserved, broadcast
  ['::', 128, 'ipv6'], // unspecified
  ['::1', 128, 'ipv6'], // loopback
  ['64:ff9b::', 96, 'ipv6'], // NAT64: an IPv4 address in IPv6 form
  ['fc00::', 7, 'ipv6'], // unique local (with AWS's metadata address fd00:ec2::254)
  ['fe80::', 10, 'ipv6'], // link-local
  ['ff00::', 8, 'ipv6'] // multicast
]

const nonPublic = new BlockList()
for (const [network, prefix, family] of NON_PUBLIC) nonPublic.addSubnet(network, prefix, family)

/** Whether `address` (an IP literal) is outside the public internet. IPv4-mapped IPv6 is checked as IPv4. */
export function isNonPublicAddress(address: string): boolean {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address
  const family = isIP(bare)
  if (family === 0) return false
  return nonPublic.check(bare, family === 4 ? 'ipv4' : 'ipv6')
}

/** Thrown when a connection would reach a non-public address. */
export class PrivateAddressError extends Error {
  constructor(
    readonly host: string,
    readonly address: string
  ) {
    super(
      host === address
        ? `${address} is a private, loopback or link-local address; WebFetch does not reach the user's machine or networks (the web-tools setting allowPrivateAddresses allows it)`
        : `${host} resolves to ${address}, a private, loopback or link-local address; WebFetch does not reach the user's machine or networks (the web-tools setting allowPrivateAddresses allows it)`
    )
    this.name = 'PrivateAddressError'
  }
}

/**
 * A `lookup` for node:http(s) that refuses non-public answers: the socket connects to an address
 * this function checked (no second resolution between check and connect).
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0)
      const list = addresses as LookupAddress[]
      const refused = allowPrivate ? undefined : list.find((entry) => isNonPublicAddress(entry.address))
      if (refused) return callback(new PrivateAddressError(hostname, refused.address), '', 0)
      if (options.all) return (callback as unknown as (err: null, all: LookupAddress[]) => void)(null, list)
      const first = list[0]
      if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0)
      callback(null, first.address, first.family)
    })
  }
}
