// The built web host (`out/main/web.js`) as a child process for the UI bench: started on a free
// loopback port, stopped with SIGTERM (SIGKILL after 5 s).
import { spawn, type ChildProcess } from 'node:child_process'

export interface RunningHost {
  child: ChildProcess
  url: string
}

export async function startHost(entry: string, cwd: string, env: NodeJS.ProcessEnv): Promise<RunningHost> {
  const child = spawn(process.execPath, [entry], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => fail('did not print its URL within 20 s'), 20_000)
    function fail(why: string) {
      clearTimeout(timer)
      child.kill('SIGKILL')
      reject(new Error(`bench ui: the web host ${why}\n${output.slice(-2000)}`))
    }
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')))
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8')
      const match = /Seam web UI: (http:\/\/\S+)/.exec(output)
      if (match) {
        clearTimeout(timer)
        resolveUrl(match[1])
      }
    })
    child.once('exit', (code, signal) => fail(`exited (${signal ?? `code ${code}`}) before it was ready`))
  })
  return { child, url }
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()))
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000)
  await exited
  clearTimeout(timer)
}
