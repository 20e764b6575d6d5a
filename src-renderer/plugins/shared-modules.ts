// The single React and SDK instances client bundles use: registered once on globalThis before
// any client entry loads. Contract documented in ./README.md.
import * as React from 'react'
import * as jsxRuntime from 'react/jsx-runtime'
import * as sdk from './sdk'

export interface SeamShared {
  react: typeof React
  'react/jsx-runtime': typeof jsxRuntime
  '@seam/client': typeof sdk
}

declare global {
  var __seamShared: SeamShared | undefined
}

export function registerSharedModules(): SeamShared {
  const shared: SeamShared = Object.freeze({ react: React, 'react/jsx-runtime': jsxRuntime, '@seam/client': sdk })
  globalThis.__seamShared = shared
  return shared
}
