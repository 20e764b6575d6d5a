#!/usr/bin/env node
// `prestart` / `predev`: make sure the Electron binary is on disk before electron-vite needs it.
// Electron 42+ has no install script of its own: its binary is fetched on first use, but
// electron-vite only reads node_modules/electron/path.txt and stops with "Electron uninstall"
// when it is missing. So this runs Electron's own fetcher (node_modules/electron/install.js)
// once, and when that fails (offline, a proxy, a closed network) prints one plain message with
// the ways out, then exits 1. Exits 0 at once when the binary is already there.
import { spawn } from 'node:child_process'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'

/** A download of about 100 MB: long enough for a slow line, short of hanging forever on a black-holed proxy. */
const FETCH_TIMEOUT_MS = 20 * 60 * 1000

const projectDir = resolve(process.cwd())

/** The electron package folder the project resolves, without loading `electron` (that would fetch too). */
function electronPackageDir() {
  try {
    return dirname(createRequire(join(projectDir, 'package.json')).resolve('electron/package.json'))
  } catch {
    return null
  }
}

/** The executable electron-vite will run, when it exists: ELECTRON_EXEC_PATH, else dist/<path.txt>. */
function installedBinary(packageDir) {
  const override = process.env.ELECTRON_EXEC_PATH
  if (override) return isFile(override) ? override : null
  const pathFile = join(packageDir, 'path.txt')
  if (!existsSync(pathFile)) return null
  const binary = join(packageDir, 'dist', readFileSync(pathFile, 'utf8').trim())
  return isFile(binary) ? binary : null
}

function isFile(path) {
  try {
    return statSync(path).isFile()
  } catch {
    return false
  }
}

/** Electron's own fetcher; resolves with its exit status and the first line of what it reported. */
function runElectronInstaller(packageDir) {
  return new Promise((resolveRun) => {
    const child = spawn(process.execPath, [join(packageDir, 'install.js')], {
      cwd: packageDir,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, ELECTRON_GET_NO_PROGRESS: process.env.ELECTRON_GET_NO_PROGRESS ?? '1' }
    })
    let stderr = ''
    child.stderr.setEncoding('utf8')
    child.stderr.on('data', (chunk) => {
      if (stderr.length < 64 * 1024) stderr += chunk
    })
    const timer = setTimeout(() => {
      stderr = `no answer after ${FETCH_TIMEOUT_MS / 60000} minutes\n` + stderr
      child.kill('SIGTERM')
    }, FETCH_TIMEOUT_MS)
    child.on('error', (error) => {
      clearTimeout(timer)
      resolveRun({ code: 1, reason: error.message })
    })
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      resolveRun({ code: code ?? (signal ? 1 : 0), reason: firstReason(stderr) })
    })
  })
}

/** The error line of a stack trace (not the "at ..." frames), or the first line said. */
function firstReason(text) {
  const lines = text.split(/\r?\n/).map((line) => line.trim()).filter(Boolean)
  const errorLine = lines.find((line) => /^[A-Za-z]*Error\b/.test(line)) ?? lines.find((line) => !line.startsWith('at '))
  return errorLine ? errorLine.slice(0, 300) : 'no reason given'
}

/** Electron's fetcher declares Node 22.12+; on older Node it usually works, but say so when it fails. */
function nodeNote() {
  const [major, minor] = process.versions.node.split('.').map(Number)
  if (major > 22 || (major === 22 && minor >= 12)) return []
  return [`(Electron's fetcher asks for Node 22.12 or later; this is Node ${process.versions.node}. Building, tests and web mode need only 20.19.)`]
}

function explain({ version, packageDir, reason }) {
  const where = packageDir ? join(packageDir, 'dist') : 'node_modules/electron/dist'
  return [
    '',
    `Seam's desktop app needs the Electron ${version} binary, and it is not in ${where}.`,
    `Fetching it failed: ${reason}`,
    ...nodeNote(),
    '',
    'To fetch it (about 100 MB, once), run `npx install-electron` where the download is reachable, or:',
    '  - through a mirror:  ELECTRON_MIRROR=https://<mirror>/electron/ npx install-electron',
    '                       (ELECTRON_CUSTOM_DIR sets the folder under the mirror, default the version)',
    '  - through a proxy:   ELECTRON_GET_USE_PROXY=true HTTPS_PROXY=http://<proxy>:<port> npx install-electron',
    '                       (needs the `undici` package: npm install --no-save undici)',
    '  - with an Electron you already have:  ELECTRON_EXEC_PATH=/path/to/electron npm start',
    'then run `npm start` (or `npm run dev`) again.',
    '',
    'Without Electron, `npm run web` serves the same UI in your browser.',
    ''
  ].join('\n')
}

/**
 * On Linux, Chromium's sandbox needs unprivileged user namespaces or, failing those, a setuid-root
 * chrome-sandbox helper; with neither, Electron stops at start. Warn when that is the case here.
 */
function sandboxWarning(binary) {
  if (process.platform !== 'linux' || process.env.ELECTRON_EXEC_PATH || !userNamespacesRestricted()) return null
  const helper = join(dirname(binary), 'chrome-sandbox')
  let info
  try {
    info = statSync(helper)
  } catch {
    return null
  }
  if (info.uid === 0 && (info.mode & 0o4000) !== 0) return null
  return [
    `Note: this system restricts unprivileged user namespaces and ${helper} is not setuid root,`,
    "so Electron's sandbox will refuse to start. Either make the helper setuid root:",
    `  sudo chown root:root "${helper}" && sudo chmod 4755 "${helper}"`,
    'or see "Linux: the Chromium sandbox" in the README for the development workaround.'
  ].join('\n')
}

function userNamespacesRestricted() {
  const read = (path) => {
    try {
      return readFileSync(path, 'utf8').trim()
    } catch {
      return null
    }
  }
  return (
    read('/proc/sys/kernel/unprivileged_userns_clone') === '0' ||
    read('/proc/sys/kernel/apparmor_restrict_unprivileged_userns') === '1' ||
    read('/proc/sys/user/max_user_namespaces') === '0'
  )
}

async function main() {
  const packageDir = electronPackageDir()
  if (!packageDir) {
    process.stderr.write(explain({ version: '(any)', packageDir: null, reason: 'the electron package is not installed; run `npm install` first' }))
    return 1
  }
  const version = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')).version
  const override = process.env.ELECTRON_EXEC_PATH
  if (override && !isFile(override)) {
    process.stderr.write(explain({ version, packageDir, reason: `ELECTRON_EXEC_PATH names ${override}, which is not a file` }))
    return 1
  }
  let binary = installedBinary(packageDir)
  if (!binary) {
    process.stdout.write(`Fetching the Electron ${version} binary (about 100 MB, only on the first run)...\n`)
    const result = await runElectronInstaller(packageDir)
    binary = installedBinary(packageDir)
    if (result.code !== 0 || !binary) {
      const reason = result.code !== 0 ? result.reason : 'the fetcher finished but left no executable'
      process.stderr.write(explain({ version, packageDir, reason }))
      return 1
    }
    process.stdout.write(`Electron ${version} is ready: ${binary}\n`)
  }
  const warning = sandboxWarning(binary)
  if (warning) process.stderr.write(warning + '\n')
  return 0
}

process.exitCode = await main()
