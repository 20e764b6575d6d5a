// The approval dialog's file preview (issue 17, "Reviewing changes"): the absolute target and
// its current content, so the dialog shows the diff a Write/Edit would apply.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { filePreview, PREVIEW_MAX_BYTES } from './approval-preview'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'seam-preview-'))
  await writeFile(join(dir, 'a.txt'), 'one\ntwo\n')
  await writeFile(join(dir, 'big.txt'), 'x'.repeat(PREVIEW_MAX_BYTES + 10))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

describe('filePreview', () => {
  it('resolves a relative file_path against the call\'s folder and reads what is there now', () => {
    expect(filePreview('Edit', { file_path: 'a.txt', old_string: 'one', new_string: '1' }, dir)).toEqual({ path: join(dir, 'a.txt'), before: 'one\ntwo\n', truncated: false })
  })

  it('gives null content for a file a Write would create', () => {
    expect(filePreview('Write', { file_path: join(dir, 'new.txt'), content: 'hi' }, dir)).toEqual({ path: join(dir, 'new.txt'), before: null, truncated: false })
  })

  it('cuts a large file at the preview limit and says so', () => {
    const preview = filePreview('Write', { file_path: 'big.txt', content: '' }, dir)
    expect(preview?.before).toHaveLength(PREVIEW_MAX_BYTES)
    expect(preview?.truncated).toBe(true)
  })

  it('has nothing to preview for other tools or a missing file_path', () => {
    expect(filePreview('Bash', { command: 'ls' }, dir)).toBeUndefined()
    expect(filePreview('Write', { content: 'x' }, dir)).toBeUndefined()
    expect(filePreview('Write', { file_path: 'rel.txt' }, undefined)).toBeUndefined()
  })
})
