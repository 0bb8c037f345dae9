/** `plangraph mcp`: the MCP server on stdio, for agent frameworks (see src/mcp/server.ts). */
import type { Command } from 'commander';
import { runMcpServer } from '../../mcp/server';
import { configFromEnv } from '../runtime';

export function registerMcpCommand(program: Command): void {
  program
    .command('mcp')
    .description('Serve plangraph as MCP tools over stdio (acts as the principal of MCP_API_KEY; anonymous without it)')
    .action(async () => {
      // stdout belongs to the protocol: every human-readable line goes to stderr.
      await runMcpServer(configFromEnv(), (line) => console.error(`[plangraph mcp] ${line}`));
    });
}
