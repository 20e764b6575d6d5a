// Which files a simple command reads and writes, so `Read(...)` and `Edit(...)` rules reach Bash
// as Claude Code's do: `cat secret.txt` reads it, `echo x > out`, `cp a b`, `sed -i`, `rm` write.
// A path word the shell computes (`$F`, `*.txt`) or words xargs adds are "unknown": a rule about
// files cannot be checked against them.
import type { Alternative } from '../hook-protocol/index'

export interface FileAccess {
  reads: string[]
  writes: string[]
  /** Some file this command touches cannot be known before it runs. */
  unknown?: string
}

/** Every operand is a file the command reads. */
const READERS = new Set([
  'cat', 'head', 'tail', 'less', 'more', 'nl', 'wc', 'sort', 'uniq', 'tac', 'od', 'xxd', 'hexdump', 'strings', 'file', 'stat',
  'md5sum', 'sha1sum', 'sha256sum', 'sha512sum', 'cksum', 'base64', 'diff', 'cmp', 'comm', 'cut', 'paste', 'fold', 'fmt', 'column',
  'bat', 'view', 'source', '.', 'zcat', 'bzcat', 'xzcat', 'iconv', 'tr', 'expand', 'unexpand', 'rev', 'look', 'split', 'csplit'
])
/** The first operand is a pattern or program (unless given by -e/-f), the rest are files read. */
const PATTERN_FIRST = new Set(['grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack', 'awk', 'gawk', 'mawk', 'nawk', 'sed', 'jq'])
/** Every operand is a file the command changes (creates, removes, truncates, re-modes). */
const WRITERS = new Set(['rm', 'rmdir', 'touch', 'mkdir', 'truncate', 'unlink', 'shred', 'tee'])
/** The first operand is a mode or owner, the rest are files changed. */
const ATTRIBUTE_SETTERS = new Set(['chmod', 'chown', 'chgrp'])
/** The last operand (or `-t DIR`) is written; the others are read (`cp`, `install`) or moved away (`mv`). */
const COPIERS = new Set(['cp', 'mv', 'install', 'ln', 'rsync', 'scp'])

const READ_REDIRECTS = new Set(['<', '<>'])
const WRITE_REDIRECTS = new Set(['>', '>>', '>|', '&>', '&>>', '<>', '>&'])

/** The files `part` reads and writes, as written in it (relative paths unresolved). */
export function fileAccess(part: Alternative): FileAccess {
  const access: FileAccess = { reads: [], writes: [] }
  for (const redirect of part.redirects) {
    if (redirect.computed) access.unknown = `${redirect.op} ${redirect.target}`
    if (redirect.computed || redirect.target === '/dev/null') continue
    if (READ_REDIRECTS.has(redirect.op)) access.reads.push(redirect.target)
    if (WRITE_REDIRECTS.has(redirect.op)) access.writes.push(redirect.target)
  }
  const name = part.argv[0]
  if (name === undefined) return access
  const touchesFiles = READERS.has(name) || PATTERN_FIRST.has(name) || WRITERS.has(name) || ATTRIBUTE_SETTERS.has(name) || COPIERS.has(name) || name === 'dd'
  if (!touchesFiles) return access
  if (part.moreArgs) access.unknown ??= `the files ${name} gets from xargs`
  const { operands, optionFiles, patternGiven, inPlace, targetDir } = operandsOf(part)
  for (const word of operands) if (word.computed) access.unknown ??= word.text
  const paths = operands.filter((w) => !w.computed).map((w) => w.text)
  access.reads.push(...optionFiles)
  if (name === 'dd') {
    for (const operand of paths) {
      if (operand.startsWith('if=')) access.reads.push(operand.slice(3))
      if (operand.startsWith('of=')) access.writes.push(operand.slice(3))
    }
  } else if (READERS.has(name)) access.reads.push(...paths)
  else if (PATTERN_FIRST.has(name)) {
    const files = patternGiven ? paths : paths.slice(1)
    access.reads.push(...files)
    if (name === 'sed' && inPlace) access.writes.push(...files)
  } else if (WRITERS.has(name)) access.writes.push(...paths)
  else if (ATTRIBUTE_SETTERS.has(name)) access.writes.push(...paths.slice(1))
  else if (COPIERS.has(name)) {
    const destination = targetDir ?? paths[paths.length - 1]
    const sources = targetDir !== undefined ? paths : paths.slice(0, -1)
    if (name === 'mv') access.writes.push(...sources)
    else access.reads.push(...sources)
    if (destination !== undefined) access.writes.push(destination)
  }
  return access
}

interface Operand {
  text: string
  computed: boolean
}

/** Operands (words that are not options), files named by options (`-f FILE`), and a few flags. */
function operandsOf(part: Alternative) {
  const name = part.argv[0]
  const operands: Operand[] = []
  const optionFiles: string[] = []
  let patternGiven = false
  let inPlace = false
  let targetDir: string | undefined
  let optionsEnd = false
  for (let i = 1; i < part.argv.length; i++) {
    const word = part.argv[i]
    const computed = part.computed.includes(i)
    if (optionsEnd || computed || !word.startsWith('-') || word === '-') {
      operands.push({ text: word, computed })
      continue
    }
    if (word === '--') {
      optionsEnd = true
      continue
    }
    if (name === 'sed' && /^-[a-zA-Z]*i/.test(word)) inPlace = true
    if (name === 'sed' && word.startsWith('--in-place')) inPlace = true
    if (PATTERN_FIRST.has(name) && (word === '-e' || word === '--regexp' || word === '--expression')) {
      patternGiven = true
      i++
    } else if (PATTERN_FIRST.has(name) && (word === '-f' || word === '--file')) {
      patternGiven = true
      if (part.argv[i + 1] !== undefined) optionFiles.push(part.argv[i + 1])
      i++
    } else if (COPIERS.has(name) && (word === '-t' || word === '--target-directory')) {
      targetDir = part.argv[i + 1]
      i++
    } else if (COPIERS.has(name) && word.startsWith('--target-directory=')) targetDir = word.slice('--target-directory='.length)
  }
  return { operands, optionFiles, patternGiven, inPlace, targetDir }
}
