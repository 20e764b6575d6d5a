#!/usr/bin/env node
// Renders seam.svg into the icon files the installers use, with the Chromium the end-to-end tests
// already use (scripts/chromium.mjs): png/<size>x<size>.png for Linux, icon.png (1024) for macOS
// (electron-builder makes the .icns from it), icon.ico for Windows (PNG images inside an ICO
// container, which Windows Vista and later read). The outputs are committed; run this again
// after changing seam.svg: `node packaging/icons/render.mjs`.
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium } from '@playwright/test'
import { findChromium } from '../../scripts/chromium.mjs'

const here = dirname(fileURLToPath(import.meta.url))
export const PNG_SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024]
export const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256]

/** An ICO file holding PNG images (one directory entry each; 256 is written as 0). */
export function icoFromPngs(images) {
  const header = Buffer.alloc(6)
  header.writeUInt16LE(0, 0)
  header.writeUInt16LE(1, 2)
  header.writeUInt16LE(images.length, 4)
  let offset = 6 + 16 * images.length
  const entries = images.map(({ size, png }) => {
    const entry = Buffer.alloc(16)
    entry.writeUInt8(size >= 256 ? 0 : size, 0)
    entry.writeUInt8(size >= 256 ? 0 : size, 1)
    entry.writeUInt8(0, 2) // no palette
    entry.writeUInt8(0, 3)
    entry.writeUInt16LE(1, 4) // colour planes
    entry.writeUInt16LE(32, 6) // bits per pixel
    entry.writeUInt32LE(png.length, 8)
    entry.writeUInt32LE(offset, 12)
    offset += png.length
    return entry
  })
  return Buffer.concat([header, ...entries, ...images.map(({ png }) => png)])
}

async function main() {
  const svg = await readFile(join(here, 'seam.svg'), 'utf8')
  const found = findChromium()
  if (!found || 'error' in found) throw new Error(found?.error ?? 'no Chromium found: see scripts/chromium.mjs')
  const browser = await chromium.launch({ executablePath: found.path })
  try {
    const page = await browser.newPage()
    const rendered = new Map()
    for (const size of PNG_SIZES) {
      await page.setViewportSize({ width: size, height: size })
      const data = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`
      await page.setContent(`<style>html,body{margin:0;background:transparent}</style><img src="${data}" width="${size}" height="${size}">`)
      await page.locator('img').evaluate((img) => img.decode())
      rendered.set(size, await page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } }))
    }
    await mkdir(join(here, 'png'), { recursive: true })
    for (const [size, png] of rendered) await writeFile(join(here, 'png', `${size}x${size}.png`), png)
    await writeFile(join(here, 'icon.png'), rendered.get(1024))
    await writeFile(join(here, 'icon.ico'), icoFromPngs(ICO_SIZES.map((size) => ({ size, png: rendered.get(size) }))))
    console.log(`icons written to ${here}`)
  } finally {
    await browser.close()
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main()
