// Yields the main thread: resolves in a new task, so work after the await does not extend the
// task before it (a long replay split this way never blocks input for the sum of its parts).
// A MessageChannel message, not setTimeout: browsers throttle timers in hidden windows.

export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel()
    channel.port1.onmessage = () => {
      channel.port1.close()
      resolve()
    }
    channel.port2.postMessage(undefined)
  })
}
