/**
 * The console's build as a deployment source: Vite runs on this machine during `cdk synth`
 * (infra/build-console-asset.ts, in a child process like the functions' bundles), never in
 * Docker. With bundling skipped (`aws:cdk:bundling-stacks: []`, as the tests synthesize) CDK
 * does not run it, so a test synth needs no build.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { AssetHashType, DockerImage } from 'aws-cdk-lib';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import { projectRoot } from './bundle-options';

const BUILDER = path.join(projectRoot, 'infra', 'build-console-asset.ts');

export function consoleBuildSource(): s3deploy.ISource {
  return s3deploy.Source.asset(projectRoot, {
    // The hash of what is deployed, so an unchanged build deploys nothing.
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      // Never used: local bundling always runs (it throws rather than fall back to Docker).
      image: DockerImage.fromRegistry('scratch'),
      // CDK caches bundled assets by source path and bundling options; the functions' assets
      // bundle from the project root too, so this tells the console's apart.
      environment: { TESSERA_ASSET: 'console' },
      local: {
        tryBundle(outputDir: string): boolean {
          execFileSync(process.execPath, ['--import', 'tsx', BUILDER, outputDir], { cwd: projectRoot, stdio: ['ignore', 'inherit', 'inherit'] });
          return true;
        },
      },
    },
  });
}
