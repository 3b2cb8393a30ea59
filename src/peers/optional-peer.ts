/**
 * The rejection handler for a dynamic import of an optional peer dependency:
 * a missing package becomes an error that names it and how to install it;
 * any other failure passes through unchanged.
 */
export function missingPeer(packageName: string, range: string, feature: string) {
  return (error: unknown): never => {
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    const message = error instanceof Error ? error.message : '';
    if ((code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && message.includes(packageName)) {
      throw new Error(
        `${feature} needs the optional package ${packageName}, which is not installed. Install it with: npm install ${packageName}@"${range}"`,
        { cause: error },
      );
    }
    throw error;
  };
}
