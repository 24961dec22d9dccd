// LiteSVM reports a failed transaction as napi objects and const-enum numbers; JSON-RPC clients expect the
// validator's serde form ("AlreadyProcessed", {"InstructionError":[0,{"Custom":1}]}). This is that mapping.

// Order of litesvm's `TransactionErrorFieldless` const enum (dist/internal.d.ts), which mirrors agave's.
const TRANSACTION_ERRORS = [
  "AccountInUse", "AccountLoadedTwice", "AccountNotFound", "ProgramAccountNotFound", "InsufficientFundsForFee",
  "InvalidAccountForFee", "AlreadyProcessed", "BlockhashNotFound", "CallChainTooDeep", "MissingSignatureForFee",
  "InvalidAccountIndex", "SignatureFailure", "InvalidProgramForExecution", "SanitizeFailure", "ClusterMaintenance",
  "AccountBorrowOutstanding", "WouldExceedMaxBlockCostLimit", "UnsupportedVersion", "InvalidWritableAccount",
  "WouldExceedMaxAccountCostLimit", "WouldExceedAccountDataBlockLimit", "TooManyAccountLocks",
  "AddressLookupTableNotFound", "InvalidAddressLookupTableOwner", "InvalidAddressLookupTableData",
  "InvalidAddressLookupTableIndex", "InvalidRentPayingAccount", "WouldExceedMaxVoteCostLimit",
  "WouldExceedAccountDataTotalLimit", "MaxLoadedAccountsDataSizeExceeded", "ResanitizationNeeded",
  "InvalidLoadedAccountsDataSizeLimit", "UnbalancedTransaction", "ProgramCacheHitMaxLimit", "CommitCancelled",
] as const;

// Order of litesvm's `InstructionErrorFieldless` const enum.
const INSTRUCTION_ERRORS = [
  "GenericError", "InvalidArgument", "InvalidInstructionData", "InvalidAccountData", "AccountDataTooSmall",
  "InsufficientFunds", "IncorrectProgramId", "MissingRequiredSignature", "AccountAlreadyInitialized",
  "UninitializedAccount", "UnbalancedInstruction", "ModifiedProgramId", "ExternalAccountLamportSpend",
  "ExternalAccountDataModified", "ReadonlyLamportChange", "ReadonlyDataModified", "DuplicateAccountIndex",
  "ExecutableModified", "RentEpochModified", "NotEnoughAccountKeys", "AccountDataSizeChanged",
  "AccountNotExecutable", "AccountBorrowFailed", "AccountBorrowOutstanding", "DuplicateAccountOutOfSync",
  "InvalidError", "ExecutableDataModified", "ExecutableLamportChange", "ExecutableAccountNotRentExempt",
  "UnsupportedProgramId", "CallDepth", "MissingAccount", "ReentrancyNotAllowed", "MaxSeedLengthExceeded",
  "InvalidSeeds", "InvalidRealloc", "ComputationalBudgetExceeded", "PrivilegeEscalation",
  "ProgramEnvironmentSetupFailure", "ProgramFailedToComplete", "ProgramFailedToCompile", "Immutable",
  "IncorrectAuthority", "AccountNotRentExempt", "InvalidAccountOwner", "ArithmeticOverflow", "UnsupportedSysvar",
  "IllegalOwner", "MaxAccountsDataAllocationsExceeded", "MaxAccountsExceeded", "MaxInstructionTraceLengthExceeded",
  "BuiltinProgramsMustConsumeComputeUnits",
] as const;

export type RpcTransactionError = string | Record<string, unknown>;

type NapiError = { constructor: { name: string }; index?: number; accountIndex?: number; code?: number; msg?: string; err?: () => unknown };

function instructionError(err: unknown): string | Record<string, unknown> {
  if (typeof err === "number") return INSTRUCTION_ERRORS[err] ?? `InstructionError${err}`;
  const e = err as NapiError;
  if (typeof e.code === "number") return { Custom: e.code };
  if (typeof e.msg === "string") return { BorshIoError: e.msg };
  return String(err);
}

/** The JSON-RPC form of a LiteSVM transaction error. */
export function rpcTransactionError(err: unknown): RpcTransactionError {
  if (typeof err === "number") return TRANSACTION_ERRORS[err] ?? `TransactionError${err}`;
  const e = err as NapiError;
  switch (e.constructor?.name) {
    case "TransactionErrorInstructionError":
      return { InstructionError: [e.index, instructionError(e.err?.())] };
    case "TransactionErrorDuplicateInstruction":
      return { DuplicateInstruction: e.index };
    case "TransactionErrorInsufficientFundsForRent":
      return { InsufficientFundsForRent: { account_index: e.accountIndex } };
    case "TransactionErrorProgramExecutionTemporarilyRestricted":
      return { ProgramExecutionTemporarilyRestricted: { account_index: e.accountIndex } };
    default:
      return String(err);
  }
}

/** The sentence a validator puts after "Transaction simulation failed: ". */
export function describeTransactionError(err: RpcTransactionError): string {
  if (typeof err === "string") return err.replace(/([a-z])([A-Z])/g, "$1 $2").replace(/^./, (c) => c.toUpperCase());
  if ("InstructionError" in err) {
    const [index, inner] = err.InstructionError as [number, unknown];
    const what =
      typeof inner === "string"
        ? inner.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase()
        : inner && typeof inner === "object" && "Custom" in inner
          ? `custom program error: 0x${(inner.Custom as number).toString(16)}`
          : JSON.stringify(inner);
    return `Error processing Instruction ${index}: ${what}`;
  }
  if ("InsufficientFundsForRent" in err)
    return `Transaction results in an account (${(err.InsufficientFundsForRent as { account_index: number }).account_index}) with insufficient funds for rent`;
  return JSON.stringify(err);
}
