/** The empty-module baseline of the cold-start bench: what Node costs to import nothing. */
export const handler = async (): Promise<{ statusCode: number }> => Promise.resolve({ statusCode: 200 });
