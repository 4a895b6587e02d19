package legate.acp.permission;

/**
 * A policy file that cannot be used: it does not parse, or it names a field, kind, action or
 * setting that does not exist. The message names the file, the line and the field, because the
 * bridge stops at start with it (exit 2) and a person fixes the file from it.
 */
public final class PolicyFileError extends Exception {

    /**
     * @param file the file as configured
     * @param line the 1-based line of the problem, or 0 when unknown
     * @param field the field at fault, or null when the problem is the file's syntax
     * @param problem what is wrong, in plain words
     */
    public PolicyFileError(String file, int line, String field, String problem) {
        super("policy file " + file + (line > 0 ? ", line " + line : "") + (field == null ? "" : ", field '" + field + "'")
                + ": " + problem);
    }
}
