// Bounded capture of a byte stream: keeps the first `maxBytes`, counts and drops the rest so the
// producer is never blocked, and decodes as UTF-8 with replacement (never throws).

export class BoundedOutput {
  private readonly chunks: Buffer[] = []
  private size = 0
  /** True once more bytes arrived than were kept. */
  truncated = false

  constructor(private readonly maxBytes: number) {}

  push(chunk: Buffer): void {
    const room = this.maxBytes - this.size
    if (chunk.length <= room) {
      this.chunks.push(chunk)
      this.size += chunk.length
      return
    }
    this.truncated = true
    if (room > 0) {
      this.chunks.push(chunk.subarray(0, room))
      this.size += room
    }
  }

  text(): string {
    const bytes = Buffer.concat(this.chunks, this.size)
    return (this.truncated ? cutAtUtf8Boundary(bytes) : bytes).toString('utf8')
  }
}

/** Drops a trailing incomplete UTF-8 sequence left by a byte-count cut, so no U+FFFD is invented at the end. */
export function cutAtUtf8Boundary(bytes: Buffer): Buffer {
  // Walk back over at most 3 continuation bytes to the lead byte of the last sequence.
  let lead = bytes.length - 1
  while (lead >= 0 && bytes.length - lead <= 4 && (bytes[lead] & 0xc0) === 0x80) lead--
  if (lead < 0 || bytes.length - lead > 4) return bytes
  const first = bytes[lead]
  const need = first >= 0xf0 ? 4 : first >= 0xe0 ? 3 : first >= 0xc0 ? 2 : 1
  return bytes.length - lead < need ? bytes.subarray(0, lead) : bytes
}

/** Cuts `text` to at most `maxBytes` UTF-8 bytes at a character boundary. */
export function truncateUtf8(text: string, maxBytes: number): { text: string; truncated: boolean } {
  const bytes = Buffer.from(text, 'utf8')
  if (bytes.length <= maxBytes) return { text, truncated: false }
  return { text: cutAtUtf8Boundary(bytes.subarray(0, maxBytes)).toString('utf8'), truncated: true }
}
