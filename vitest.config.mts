import { defineConfig } from 'vitest/config'
import react from '@vitejs/plugin-react'

export default defineConfig({
  plugins: [react()],
  test: {
    // e2e/ holds Playwright specs; vitest must not pick them up.
    include: ['src-shared/**/*.test.{ts,tsx}', 'src-main/**/*.test.{ts,tsx}', 'src-renderer/**/*.test.{ts,tsx}', 'plugins/**/*.test.{ts,tsx}', 'test-support/**/*.test.ts', 'scripts/**/*.test.ts', 'examples/**/*.test.ts', 'packaging/**/*.test.ts', 'packages/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 20_000
  }
})
