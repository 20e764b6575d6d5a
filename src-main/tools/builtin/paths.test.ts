// How the file tools resolve a model's path, on Linux and as on Windows (issue 30): Claude Code on
// Windows takes `C:\...`, `C:/...` and Git Bash's `/c/...` for the same file.
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { resolveToolPath } from './paths'

describe('resolveToolPath', () => {
  it('resolves relative, absolute and ~ paths lexically on POSIX', () => {
    expect(resolveToolPath('/ws', 'src/a.ts', 'linux')).toBe('/ws/src/a.ts')
    expect(resolveToolPath('/ws', '../x/../y', 'linux')).toBe('/y')
    expect(resolveToolPath('/ws', '~/notes', 'linux')).toBe(path.posix.join(os.homedir(), 'notes'))
    expect(resolveToolPath('/ws', '/c/Users', 'linux')).toBe('/c/Users')
  })

  it('on Windows, the three spellings of one file resolve to the same Windows path', () => {
    const cwd = 'C:\\Users\\me\\proj'
    for (const input of ['C:\\Users\\me\\proj\\src\\a.ts', 'C:/Users/me/proj/src/a.ts', '/c/Users/me/proj/src/a.ts', 'src/a.ts', 'src\\a.ts', 'src/../src/a.ts']) {
      expect(resolveToolPath(cwd, input, 'win32'), input).toBe('C:\\Users\\me\\proj\\src\\a.ts')
    }
    expect(resolveToolPath(cwd, '/d/data/x.csv', 'win32')).toBe('D:\\data\\x.csv')
  })
})
