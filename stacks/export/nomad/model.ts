/**
 * The part of Nomad's job API that svc export writes, with the API's JSON field names (the Go
 * structs of github.com/hashicorp/nomad/api: jobs.go, tasks.go, services.go, resources.go).
 * Durations are nanoseconds in JSON. See docs/migrate.md for the mapping and what it cannot say.
 */
export interface NomadJob {
  ID: string;
  Name: string;
  Type: 'service' | 'batch';
  Datacenters: string[];
  Meta?: Record<string, string>;
  Periodic?: NomadPeriodic;
  TaskGroups: NomadTaskGroup[];
}

export interface NomadPeriodic {
  Enabled: boolean;
  Specs: string[];
  SpecType: 'cron';
  ProhibitOverlap: boolean;
  TimeZone?: string;
}

export interface NomadTaskGroup {
  Name: string;
  Count: number;
  RestartPolicy: { Attempts: number; Interval: number; Delay: number; Mode: 'fail' | 'delay' };
  ReschedulePolicy?: { Attempts: number; Unlimited: boolean };
  Networks?: { ReservedPorts: { Label: string; Value: number }[] }[];
  Meta?: Record<string, string>;
  Tasks: NomadTask[];
}

export interface NomadTask {
  Name: string;
  Driver: 'raw_exec';
  User?: string;
  Config: { command: string; args?: string[] };
  Env?: Record<string, string>;
  Lifecycle?: { Hook: 'prestart' | 'poststop'; Sidecar: boolean };
  KillTimeout?: number;
  KillSignal?: string;
  Resources?: { CPU?: number; Cores?: number; MemoryMB?: number };
  Services?: NomadService[];
}

export interface NomadService {
  Name: string;
  Provider: 'nomad' | 'consul';
  PortLabel?: string;
  Address?: string;
  Checks: NomadCheck[];
}

export interface NomadCheck {
  Name: string;
  Type: 'http' | 'tcp' | 'script';
  Path?: string;
  Protocol?: string;
  Command?: string;
  Args?: string[];
  PortLabel?: string;
  Interval: number;
  Timeout: number;
  SuccessBeforePassing?: number;
  FailuresBeforeCritical?: number;
  CheckRestart?: { Limit: number; Grace: number; IgnoreWarnings: boolean };
}

/** Seconds as Nomad's JSON durations (nanoseconds). */
export const ns = (seconds: number) => Math.round(seconds * 1e9);
