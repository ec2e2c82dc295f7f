/**
 * The foreground life of `npm start` and `npm run demo`: what a start began is stopped in
 * reverse order on Ctrl-C (SIGINT), SIGTERM or a failure while starting; a second Ctrl-C does
 * not wait.
 */
export type Cleanup = () => Promise<void>;

export function runInForeground(main: (cleanups: Cleanup[]) => Promise<void>): void {
  const cleanups: Cleanup[] = [];
  let stopping = false;

  async function shutdown(exitCode: number): Promise<never> {
    if (!stopping) {
      stopping = true;
      for (const cleanup of cleanups.reverse()) await cleanup().catch((error: unknown) => console.error('tessera: while stopping:', error));
    }
    process.exit(exitCode);
  }

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) process.exit(1);
      console.log(`\n${signal}: stopping`);
      void shutdown(0);
    });
  }

  main(cleanups).catch(async (error: unknown) => {
    console.error(`tessera: ${error instanceof Error ? error.message : String(error)}`);
    await shutdown(1);
  });
}
