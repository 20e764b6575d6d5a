// Durable before the write (issue 17, "Reviewing changes"; session README "Durability"), watched
// from outside with strace on the real `seam run`: before Write replaces a file, the old content's
// blob is renamed into the session's folder, then the file/checkpoint line is written to the
// session file and fdatasynced, and only then does the Write rename its new file into place. That
// one sync also covers the Write's tool/call: no second sync of the session file before the rename.
import { execFile } from 'node:child_process'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { expect, it } from 'vitest'
import { startFakeOpenAI } from '../../test-support/fake-openai.mjs'
import { hasStrace, parseTrace } from '../../test-support/strace'
import { SEAM_BIN, useCliScratch } from '../../test-support/built-cli'

const run = promisify(execFile)

let home: string
let workspace: string
useCliScratch('ckpt-durable', (dirs) => ({ home, workspace } = dirs))

it.skipIf(!hasStrace)('the blob and the file/checkpoint event are on disk, synced, before the Write renames its new file into place', async () => {
  const target = join(workspace, 'notes.txt')
  await writeFile(target, 'old content\n')
  const server = await startFakeOpenAI([{ toolCalls: [{ name: 'Write', args: { file_path: target, content: 'new content\n' } }] }, { text: 'written' }])
  const tracePath = join(home, 'trace.txt')
  try {
    await run(
      'strace',
      ['-f', '-s', '65536', '-e', 'trace=write,pwrite64,writev,fdatasync,fsync,rename,renameat,renameat2', '-o', tracePath, process.execPath, SEAM_BIN, 'run', '--json', '--workspace', workspace, '--provider', 'openai-compatible', '--base-url', server.url, '--model', 'm', '--approve', 'allow', 'rewrite the notes'],
      { cwd: workspace, env: { ...process.env, SEAM_HOME: home }, timeout: 60_000 }
    )
  } finally {
    await server.close()
  }
  expect(await readFile(target, 'utf8')).toBe('new content\n')
  const calls = parseTrace(await readFile(tracePath, 'utf8'))
  const checkpointWrite = calls.find((c) => c.name.startsWith('write') && !/^\d+\s+write\([12],/.test(c.text) && c.text.includes('\\"type\\":\\"file/checkpoint\\"'))
  expect(checkpointWrite, 'the file/checkpoint line is written to the session file').toBeDefined()
  const fd = /\w+\((\d+),/.exec(checkpointWrite!.text)![1]
  const sync = calls.find((c) => c.name === 'fdatasync' && c.at > checkpointWrite!.doneAt && c.text.includes(`fdatasync(${fd}`))
  expect(sync, 'an fdatasync of the session file after the checkpoint').toBeDefined()
  const renames = calls.filter((c) => c.name.startsWith('rename'))
  const blobRename = renames.find((c) => /\.files\/[0-9a-f]{64}"/.test(c.text))
  const writeRename = renames.find((c) => c.text.includes(`"${target}"`))
  expect(blobRename, 'the old content is kept as a blob').toBeDefined()
  expect(writeRename, 'the Write renames its new file over the target').toBeDefined()
  expect(blobRename!.doneAt).toBeLessThan(checkpointWrite!.at)
  expect(sync!.doneAt).toBeLessThan(writeRename!.at)
  const toolCallWrite = calls.find((c) => c.name.startsWith('write') && c.text.startsWith(checkpointWrite!.text.split(' ')[0]) && c.text.includes(`write(${fd},`) && c.text.includes('\\"type\\":\\"tool/call\\"'))
  expect(toolCallWrite, 'the tool/call line is written to the session file').toBeDefined()
  expect(toolCallWrite!.doneAt).toBeLessThan(sync!.at)
  const syncsBeforeRename = calls.filter((c) => c.name === 'fdatasync' && c.text.includes(`fdatasync(${fd}`) && c.at < writeRename!.at)
  expect(syncsBeforeRename).toEqual([sync])
}, 90_000)
