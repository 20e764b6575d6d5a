// Splits streaming Markdown into top-level blocks at blank lines outside code fences, so while a
// message streams only its last block is parsed again on each frame (finished blocks are
// memoised). The final message is rendered whole.

const FENCE = /^\s{0,3}(`{3,}|~{3,})/

export function splitMarkdownBlocks(text: string): string[] {
  const blocks: string[] = []
  let current: string[] = []
  let fence: string | null = null
  for (const line of text.split('\n')) {
    const marker = FENCE.exec(line)?.[1]
    if (marker) {
      if (fence === null) fence = marker[0].repeat(marker.length)
      else if (marker.startsWith(fence)) fence = null
    }
    if (fence === null && line.trim() === '' && current.length > 0) {
      blocks.push(current.join('\n'))
      current = []
      continue
    }
    if (line.trim() !== '' || current.length > 0) current.push(line)
  }
  if (current.length > 0) blocks.push(current.join('\n'))
  return blocks
}
