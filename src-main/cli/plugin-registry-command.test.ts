// Which `seam plugin install` arguments are files or folders and which are registry packages (issue 18: Sharing).
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { isBundlePath } from './plugin-registry-command'

describe('isBundlePath', () => {
  it('paths, tarballs and existing entries install from disk; names and scoped names with ranges go to the registry', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'seam-arg-'))
    try {
      await writeFile(path.join(dir, 'weather'), '')
      for (const arg of ['./x', '../x', '/abs/x', '~/x', 'bundle-1.0.0.tgz', 'dir/bundle', 'weather']) expect(isBundlePath(arg, dir), arg).toBe(true)
      for (const arg of ['push-guard', 'push-guard@^1.2', '@acme/push-guard', '@acme/push-guard@beta']) expect(isBundlePath(arg, dir), arg).toBe(false)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
