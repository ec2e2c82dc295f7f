/**
 * The function bundles as the stack ships them (infra/bundle-options.ts: ESM, minified, node22,
 * AWS SDK bundled, the Argon2 native module and the SAML schema validator beside the bundle),
 * written under bench/.build/cold-start/<function>/ so that the externals (shipped beside the
 * bundle or in the layer) resolve from the repository's node_modules when the cold-start probe
 * imports them; and the two references of
 * the cold-start bench, the DynamoDB floor and the empty module, bundled with plain esbuild.
 */
import { mkdirSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateRawSync } from 'node:zlib';
import { build } from 'esbuild';
import { LAYER_PACKAGES, handlerBuildBase, lambdaBuildOptions, modulesShippedBeside, projectRoot } from '../infra/bundle-options';

export const BUNDLE_DIR = fileURLToPath(new URL('./.build/cold-start/', import.meta.url));

export interface FunctionBundle {
  name: string;
  file: string;
  /** The bundle file alone. */
  minifiedBytes: number;
  /** The deployed zip: the bundle plus the packages shipped beside it (not the layer's: `layerZippedBytes`). */
  zippedBytes: number;
  /**
   * The function speaks SAML (issue 12 allows these 2 × the floor): its bundle holds a SAML module
   * of the SSO domain. Not "samlify is in the bundle": only the assertion consumer carries samlify;
   * the functions that read IdP metadata, serve the SP metadata or start a SAML login do without it.
   */
  speaksSaml: boolean;
}


export async function buildFunctionBundle(handler: string): Promise<FunctionBundle> {
  const dir = path.join(BUNDLE_DIR, handler);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'index.mjs');
  const result = await build({ ...lambdaBuildOptions(handler), outfile: file, metafile: true });
  const bundle = readFileSync(file);
  const shipped = modulesShippedBeside(handler).flatMap((pkg) => packageFiles(pkg));
  return {
    name: handler,
    file,
    minifiedBytes: bundle.byteLength,
    zippedBytes: zipBytes([{ name: 'index.mjs', data: bundle }, ...shipped]),
    speaksSaml: Object.keys(result.metafile.inputs).some((input) => input.startsWith('shared/identity/sso/saml-')),
  };
}

/** The zip of the stack's one layer (`LAYER_PACKAGES` under `nodejs/`), deployed once whatever the number of functions that take it. */
export function layerZippedBytes(): number {
  return zipBytes(LAYER_PACKAGES.flatMap((pkg) => packageFiles(pkg)).map((file) => ({ ...file, name: `nodejs/${file.name}` })));
}

/** The floor or the empty baseline, bundled with plain esbuild (no banner, no alias). */
export async function buildReferenceBundle(name: 'floor' | 'empty'): Promise<FunctionBundle> {
  const dir = path.join(BUNDLE_DIR, `_${name}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'index.mjs');
  await build({ ...handlerBuildBase, entryPoints: [fileURLToPath(new URL(`./${name}-handler.ts`, import.meta.url))], bundle: true, minify: true, outfile: file, logLevel: 'silent' });
  const bundle = readFileSync(file);
  return { name: `(${name})`, file, minifiedBytes: bundle.byteLength, zippedBytes: zipBytes([{ name: 'index.mjs', data: bundle }]), speaksSaml: false };
}

interface ZipEntry {
  name: string;
  data: Buffer;
}

/**
 * The files `npm ci` puts beside the bundle (or in the layer) for `pkg`: the package and its installed
 * dependencies (the native module's binary package is the host's here, linux-x64 for arm64:
 * the same size within a few per cent). Maps are left out, as the stack's bundling drops them.
 */
function packageFiles(pkg: string, seen = new Set<string>()): ZipEntry[] {
  if (seen.has(pkg)) return [];
  seen.add(pkg);
  const root = path.join(projectRoot, 'node_modules', pkg);
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> };
  const files: ZipEntry[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const full = path.join(dir, entry);
      if (statSync(full).isDirectory()) walk(full);
      else if (!entry.endsWith('.map')) files.push({ name: path.relative(projectRoot, full), data: readFileSync(full) });
    }
  };
  walk(root);
  const deps = [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.optionalDependencies ?? {})];
  for (const dep of deps) {
    try {
      statSync(path.join(projectRoot, 'node_modules', dep));
    } catch {
      continue; // an optional binary for another platform
    }
    files.push(...packageFiles(dep, seen));
  }
  return files;
}

/** Size of a zip of these files: deflate (zlib's default level) or stored, with local and central headers. */
export function zipBytes(files: readonly ZipEntry[]): number {
  let total = 22; // end of central directory
  for (const file of files) {
    const name = Buffer.byteLength(file.name);
    total += 30 + name + Math.min(deflateRawSync(file.data).byteLength, file.data.byteLength) + 46 + name;
  }
  return total;
}
