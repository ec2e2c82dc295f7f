/**
 * Resources a use case loads on its first use rather than at cold start, kept for the life of
 * the `Deps` that own them (`deps.lazy`). The point is the bundle, not only the time: a module
 * that needs, say, the Encryption SDK imports its loader itself, so only the functions whose
 * code reaches that module carry the SDK; `shared/deps.ts` never names it.
 */
export class LazyResources {
  readonly #loaded = new Map<string, Promise<unknown>>();

  /** The resource `name`, loading it once; a failed load is forgotten so the next use retries. */
  get<T>(name: string, load: () => Promise<T>): Promise<T> {
    let resource = this.#loaded.get(name) as Promise<T> | undefined;
    if (!resource) {
      resource = load();
      this.#loaded.set(name, resource);
      resource.catch(() => {
        if (this.#loaded.get(name) === resource) this.#loaded.delete(name);
      });
    }
    return resource;
  }

  /** Installs a resource ahead of its first use (tests, the local host). */
  set<T>(name: string, value: T): void {
    this.#loaded.set(name, Promise.resolve(value));
  }
}
