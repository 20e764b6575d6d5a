import type { Plugin } from 'vite'
export function modulePathForDev(): Plugin
export function modulePathForBuild(): Plugin
export function bundle(entry: string): Promise<string>
