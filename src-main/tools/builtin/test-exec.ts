// Test support for the built-in tools: a real ToolExec over a temp directory that records progress.
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { ToolExec, ToolProgress } from '../../../src-shared/host/tools'

export interface RecordingExec extends ToolExec {
  readonly updates: ToolProgress[]
}

export function makeExec(cwd: string, overrides: { signal?: AbortSignal; env?: Record<string, string>; onProgress?: (update: ToolProgress) => void } = {}): RecordingExec {
  const updates: ToolProgress[] = []
  return {
    signal: overrides.signal ?? new AbortController().signal,
    token: 'test-token',
    cwd,
    sessionId: 'test-session',
    env: overrides.env ?? {},
    updates,
    progress(update) {
      updates.push(update)
      overrides.onProgress?.(update)
    }
  }
}

export async function makeTempDir(prefix = 'seam-tools-'): Promise<string> {
  // realpath: on macOS the tmpdir is behind a symlink, and results are compared as strings.
  return fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), prefix)))
}
