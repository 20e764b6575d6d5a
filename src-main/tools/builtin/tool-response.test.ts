// The structured results hooks read as `tool_response` carry exactly Claude Code's keys, in its
// order (claude-code-hooks.md §6 PostToolUse): a hook that prints or hashes the JSON sees the same bytes.
import fs from 'node:fs/promises'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { editTool } from './edit'
import { globTool } from './glob'
import { grepTool } from './grep'
import { makeExec, makeTempDir } from './test-exec'
import { writeTool } from './write'

let dir: string
beforeEach(async () => {
  dir = await makeTempDir()
})
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true })
})

const keys = (value: unknown): string[] => Object.keys(value as object)

describe('tool_response key order (§6 PostToolUse)', () => {
  it('Write: {type, filePath, content, structuredPatch, originalFile, userModified}', async () => {
    const out = await writeTool.execute({ file_path: path.join(dir, 'a.txt'), content: 'x\n' }, makeExec(dir))
    expect(keys(out.structured)).toEqual(['type', 'filePath', 'content', 'structuredPatch', 'originalFile', 'userModified'])
    expect(out.structured).toMatchObject({ type: 'create', originalFile: null, structuredPatch: [], userModified: false })
  })

  it('Edit: {filePath, oldString, newString, originalFile, structuredPatch, userModified, replaceAll}', async () => {
    await fs.writeFile(path.join(dir, 'a.txt'), 'one\n')
    const out = await editTool.execute({ file_path: path.join(dir, 'a.txt'), old_string: 'one', new_string: 'two', replace_all: false }, makeExec(dir))
    expect(keys(out.structured)).toEqual(['filePath', 'oldString', 'newString', 'originalFile', 'structuredPatch', 'userModified', 'replaceAll'])
  })

  it('Glob: {filenames, durationMs, numFiles, truncated}', async () => {
    await fs.writeFile(path.join(dir, 'a.txt'), 'one\n')
    const out = await globTool.execute({ pattern: '*.txt' }, makeExec(dir))
    expect(keys(out.structured)).toEqual(['filenames', 'durationMs', 'numFiles', 'truncated'])
  })

  it('Grep: files_with_matches {mode, filenames, numFiles}; content {mode, numFiles: 0, filenames: [], content, numLines}', async () => {
    await fs.writeFile(path.join(dir, 'a.txt'), 'needle\n')
    const files = await grepTool.execute({ pattern: 'needle' }, makeExec(dir))
    expect(files.structured).toEqual({ mode: 'files_with_matches', filenames: [path.join(dir, 'a.txt')], numFiles: 1 })
    expect(keys(files.structured)).toEqual(['mode', 'filenames', 'numFiles'])
    const content = await grepTool.execute({ pattern: 'needle', output_mode: 'content' }, makeExec(dir))
    expect(keys(content.structured)).toEqual(['mode', 'numFiles', 'filenames', 'content', 'numLines'])
    expect(content.structured).toMatchObject({ numFiles: 0, filenames: [], numLines: 1 })
  })
})
