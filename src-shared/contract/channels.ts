// Channel names alone, so the sandboxed preload can import them without pulling in zod.
export const IPC_INVOKE_CHANNEL = 'seam:invoke'
export const IPC_PUSH_CHANNEL = 'seam:push'
