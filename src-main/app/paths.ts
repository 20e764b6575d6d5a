// Where Seam keeps its data: the Seam home (SEAM_HOME, default ~/.seam).
import { mkdirSync } from 'node:fs'
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'

export function resolveSeamHome(env: NodeJS.ProcessEnv = process.env): string {
  const home = env.SEAM_HOME && env.SEAM_HOME.trim() ? resolve(env.SEAM_HOME) : join(homedir(), '.seam')
  mkdirSync(home, { recursive: true, mode: 0o700 })
  return home
}

export function seamPaths(home: string) {
  return {
    home,
    settings: join(home, 'settings.json'),
    secrets: join(home, 'secrets.json'),
    sessions: join(home, 'sessions'),
    plugins: join(home, 'plugins'),
    patch: join(home, 'cordis.patch.yml'),
    trustPins: join(home, 'trust-pins.json')
  }
}
export type SeamPaths = ReturnType<typeof seamPaths>
