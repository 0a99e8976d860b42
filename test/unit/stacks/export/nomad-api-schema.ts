/**
 * The structure of Nomad's job API (`PUT /v1/jobs` body `{"Job": ...}`), as documented in
 * developer.hashicorp.com/nomad/api-docs/json-jobs and defined by the Go structs of
 * github.com/hashicorp/nomad/api (jobs.go, tasks.go, services.go, resources.go): every key an
 * object may have, with its type; durations are integers of nanoseconds. Objects refuse other
 * keys, so a misspelt or invented field fails. No Nomad binary is available to validate with.
 */
const str = { type: 'string' } as const;
const int = { type: 'integer' } as const;
const bool = { type: 'boolean' } as const;
const duration = { type: 'integer', minimum: 0 } as const;
const strings = { type: 'array', items: str } as const;
const stringMap = { type: 'object', additionalProperties: str } as const;
const obj = (properties: Record<string, unknown>, required: string[] = []) => ({ type: 'object', additionalProperties: false, properties, required });

const checkRestart = obj({ Limit: int, Grace: duration, IgnoreWarnings: bool });

const serviceCheck = obj(
  {
    Name: str, Type: { enum: ['http', 'tcp', 'script', 'grpc'] }, Command: str, Args: strings, Path: str, Protocol: str, PortLabel: str, Expose: bool,
    AddressMode: str, Advertise: str, Interval: duration, Timeout: duration, InitialStatus: str, Notes: str, TLSServerName: str, TLSSkipVerify: bool,
    Header: { type: 'object', additionalProperties: strings }, Method: str, CheckRestart: checkRestart, GRPCService: str, GRPCUseTLS: bool, TaskName: str,
    SuccessBeforePassing: int, FailuresBeforeCritical: int, FailuresBeforeWarning: int, Body: str, OnUpdate: str,
  },
  ['Type', 'Interval', 'Timeout'],
);

const service = obj(
  {
    Name: str, Tags: strings, CanaryTags: strings, EnableTagOverride: bool, PortLabel: str, AddressMode: str, Address: str, Checks: { type: 'array', items: serviceCheck },
    CheckRestart: checkRestart, Connect: { type: 'object' }, Meta: stringMap, CanaryMeta: stringMap, TaggedAddresses: stringMap, TaskName: str, OnUpdate: str,
    Identity: { type: 'object' }, Provider: { enum: ['consul', 'nomad'] }, Cluster: str, Kind: str, Weights: { type: 'object' },
  },
  ['Name'],
);

const resources = obj({ CPU: int, Cores: int, MemoryMB: { type: 'integer', minimum: 10 }, MemoryMaxMB: int, DiskMB: int, Networks: { type: 'array' }, Devices: { type: 'array' }, IOPS: int, NUMA: { type: 'object' }, SecretsMB: int });

const restartPolicy = obj({ Interval: duration, Attempts: { type: 'integer', minimum: 0 }, Delay: duration, Mode: { enum: ['delay', 'fail'] }, RenderTemplates: bool });

const task = obj(
  {
    Name: str, Driver: str, User: str, Lifecycle: obj({ Hook: { enum: ['prestart', 'poststart', 'poststop'] }, Sidecar: bool }, ['Hook']),
    Config: { type: 'object' }, Constraints: { type: 'array' }, Affinities: { type: 'array' }, Env: stringMap, Services: { type: 'array', items: service },
    Resources: resources, RestartPolicy: restartPolicy, Meta: stringMap, KillTimeout: duration, LogConfig: obj({ MaxFiles: int, MaxFileSizeMB: int, Disabled: bool, Enabled: bool }),
    Artifacts: { type: 'array' }, Vault: { type: 'object' }, Consul: { type: 'object' }, Templates: { type: 'array' }, DispatchPayload: { type: 'object' },
    VolumeMounts: { type: 'array' }, CSIPluginConfig: { type: 'object' }, Leader: bool, ShutdownDelay: duration, KillSignal: str, Kind: str,
    ScalingPolicies: { type: 'array' }, Identity: { type: 'object' }, Identities: { type: 'array' }, Actions: { type: 'array' }, Schedule: { type: 'object' },
  },
  ['Name', 'Driver'],
);

const port = obj({ Label: str, Value: { type: 'integer', minimum: 1, maximum: 65535 }, To: int, HostNetwork: str, IgnoreCollision: bool }, ['Label']);

const taskGroup = obj(
  {
    Name: str, Count: { type: 'integer', minimum: 0 }, Constraints: { type: 'array' }, Affinities: { type: 'array' }, Tasks: { type: 'array', items: task, minItems: 1 },
    Spreads: { type: 'array' }, Volumes: { type: 'object' }, RestartPolicy: restartPolicy, Disconnect: { type: 'object' },
    ReschedulePolicy: obj({ Attempts: int, Interval: duration, Delay: duration, DelayFunction: str, MaxDelay: duration, Unlimited: bool }),
    EphemeralDisk: { type: 'object' }, Update: { type: 'object' }, Migrate: { type: 'object' },
    Networks: { type: 'array', items: obj({ Mode: str, Device: str, CIDR: str, IP: str, DNS: { type: 'object' }, ReservedPorts: { type: 'array', items: port }, DynamicPorts: { type: 'array', items: port }, Hostname: str, MBits: int }) },
    Meta: stringMap, Services: { type: 'array', items: service }, ShutdownDelay: duration, StopAfterClientDisconnect: duration, MaxClientDisconnect: duration,
    Scaling: { type: 'object' }, Consul: { type: 'object' }, PreventRescheduleOnLost: bool,
  },
  ['Name', 'Tasks'],
);

const job = obj(
  {
    Region: str, Namespace: str, ID: str, Name: str, Type: { enum: ['service', 'batch', 'system', 'sysbatch'] }, Priority: { type: 'integer', minimum: 1, maximum: 100 },
    AllAtOnce: bool, Datacenters: { type: 'array', items: str, minItems: 1 }, NodePool: str, Constraints: { type: 'array' }, Affinities: { type: 'array' },
    TaskGroups: { type: 'array', items: taskGroup, minItems: 1 }, Update: { type: 'object' }, Multiregion: { type: 'object' }, Spreads: { type: 'array' },
    Periodic: obj({ Enabled: bool, Spec: str, Specs: strings, SpecType: { const: 'cron' }, ProhibitOverlap: bool, TimeZone: str }),
    ParameterizedJob: { type: 'object' }, Reschedule: { type: 'object' }, Migrate: { type: 'object' }, Meta: stringMap, ConsulToken: str, VaultToken: str, UI: { type: 'object' },
  },
  ['ID', 'Name', 'Type', 'TaskGroups'],
);

export const nomadRegisterBody = obj({ Job: job }, ['Job']);
