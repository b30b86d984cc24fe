import type { FastifyInstance } from 'fastify';
import type { ServerConfig } from '../config';
import { packedPackage, servedPackages, tarballName, type ServedPackage } from '../packages/servedPackages';
import { baseUrlOf } from './systemRoutes';

/** confab-cli.tgz (this server's version) or confab-cli-0.1.0.tgz (that version exactly). */
const tarballPath = /^confab-(cli|client)(?:-(\d+\.\d+\.\d+[\w.+-]*))?\.tgz$/;

/**
 * The CLI and the agent SDK as npm tarballs (servedPackages.ts): what the My Agents quickstart
 * installs with `npm i -g`, and what a project `confab init` writes depends on. Open to anyone,
 * like the web app's files: they hold nothing of this server's data.
 */
export function registerPackageRoutes(app: FastifyInstance, config: ServerConfig): void {
  app.get('/api/packages', async (request) => {
    const base = baseUrlOf(request, config);
    const packages = [];
    for (const which of servedPackages) {
      const found = await packedPackage(which);
      if (found === null) continue;
      const file = tarballName(which, found.version);
      packages.push({ name: found.name, version: found.version, file, url: `${base}/api/packages/${file}` });
    }
    return { packages };
  });

  app.get<{ Params: { file: string } }>('/api/packages/:file', async (request, reply) => {
    const match = tarballPath.exec(request.params.file);
    if (match === null) return reply.code(404).send({ status: 404, message: `No package named ${request.params.file}. This server serves confab-cli.tgz and confab-client.tgz.`, data: {} });
    const which = match[1] as ServedPackage;
    const found = await packedPackage(which);
    if (found === null) return reply.code(404).send({ status: 404, message: `This server does not serve @confab/${which}: it was started without a build of it.`, data: {} });
    if (match[2] !== undefined && match[2] !== found.version) {
      const current = tarballName(which, found.version);
      return reply.code(404).send({ status: 404, message: `This server has ${found.name} ${found.version}, not ${match[2]}: install /api/packages/${current}.`, data: {} });
    }
    return reply
      .header('content-type', 'application/octet-stream')
      .header('content-disposition', `attachment; filename="${tarballName(which, found.version)}"`)
      .header('cache-control', 'no-cache')
      .send(found.bytes);
  });
}
