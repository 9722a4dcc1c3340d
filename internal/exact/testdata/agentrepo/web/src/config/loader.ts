// Configuration loader for the web UI: defaults, then agent.config.json,
// then environment variables (AGENT_MODEL, AGENT_MAX_PARALLEL).
import { readFileSync, existsSync } from "fs";
import { join } from "path";

export interface AgentConfig {
  model: string;
  maxParallel: number;
  commands: string[];
}

export const DEFAULT_CONFIG: AgentConfig = {
  model: "small-model",
  maxParallel: 4,
  commands: ["help", "clear", "model"],
};

export class ConfigError extends Error {}

export function loadConfig(dir: string, env: Record<string, string | undefined> = process.env): AgentConfig {
  const config: AgentConfig = { ...DEFAULT_CONFIG };
  const file = join(dir, "agent.config.json");
  if (existsSync(file)) {
    let parsed: Partial<AgentConfig>;
    try {
      parsed = JSON.parse(readFileSync(file, "utf8"));
    } catch (err) {
      throw new ConfigError(`cannot parse ${file}: ${err}`);
    }
    Object.assign(config, parsed);
  }
  if (env.AGENT_MODEL) {
    config.model = env.AGENT_MODEL;
  }
  if (env.AGENT_MAX_PARALLEL) {
    const n = Number.parseInt(env.AGENT_MAX_PARALLEL, 10);
    if (!Number.isFinite(n) || n < 1) {
      throw new ConfigError(`AGENT_MAX_PARALLEL must be a positive integer, got ${env.AGENT_MAX_PARALLEL}`);
    }
    config.maxParallel = n;
  }
  return config;
}
