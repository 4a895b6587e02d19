package legate.cli.doctor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import legate.cli.doctor.Finding.Verdict;
import legate.testsupport.SourceTree;
import legate.testsupport.TestPki;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code legate doctor}'s checks, each against the real thing it looks at (a port someone holds, a
 * store file, an adapter installed the way npm lays it out, the files an agent's login leaves, a
 * token file's mode), each failing with what to do, and passing once that is done.
 */
class DoctorTest {
    @TempDir
    Path dir;

    final Map<String, String> config = new HashMap<>();
    final Map<String, String> env = new HashMap<>(Map.of("PATH", System.getenv("PATH")));

    private Doctor doctor(List<Path> adapterDirs) {
        return new Doctor(k -> Optional.ofNullable(config.get(k)), env, dir.resolve("home"), adapterDirs);
    }

    private Doctor doctor() {
        return doctor(List.of());
    }

    @Test
    void aHeldPortFailsNamingWhoHoldsItAndAFreeOnePasses() throws Exception {
        try (ServerSocket held = new ServerSocket()) {
            held.bind(new InetSocketAddress("127.0.0.1", 0));
            config.put("PORT", "" + held.getLocalPort());
            Finding f = doctor().port("HOST", "PORT", "41241");
            assertThat(f.verdict()).isEqualTo(Verdict.FAIL);
            assertThat(f.fix()).contains("PORT");
        }
        assertThat(doctor().port("HOST", "PORT", "41241").verdict()).isEqualTo(Verdict.OK);
        config.put("PORT", "forty");
        assertThat(doctor().port("HOST", "PORT", "41241").detail()).contains("not a port number");
    }

    // The gRPC binding's port: free by default (any port), a held GRPC_PORT failing with the key to change.
    @Test
    void theGrpcPortIsCheckedWhenItIsFixed() throws Exception {
        assertThat(doctor().examine("agent")).anySatisfy(f -> {
            assertThat(f.subject()).isEqualTo("port 127.0.0.1:0");
            assertThat(f.detail()).contains("any free port");
        });
        try (ServerSocket held = new ServerSocket()) {
            held.bind(new InetSocketAddress("127.0.0.1", 0));
            config.put("GRPC_PORT", "" + held.getLocalPort());
            assertThat(doctor().examine("agent")).anySatisfy(f -> {
                assertThat(f.verdict()).isEqualTo(Verdict.FAIL);
                assertThat(f.fix()).contains("GRPC_PORT");
            });
        }
    }

    @Test
    void theStoreIsCheckedAsTheServerWouldOpenIt() {
        config.put("DATA_DIR", dir.resolve("data").toString());
        assertThat(doctor().store("agent").verdict()).isEqualTo(Verdict.OK);
        config.put("TASK_STORE", "postgres");
        Finding noUrl = doctor().store("agent");
        assertThat(noUrl.verdict()).isEqualTo(Verdict.FAIL);
        assertThat(noUrl.fix()).contains("DATABASE_URL");
        config.put("DATABASE_URL", "mysql://x");
        assertThat(doctor().store("agent").detail()).contains("DATABASE_URL must start with");
        config.put("TASK_STORE", "redis");
        assertThat(doctor().store("agent").verdict()).isEqualTo(Verdict.FAIL);
        config.put("TASK_STORE", "memory");
        assertThat(doctor().store("agent").verdict()).isEqualTo(Verdict.WARN);
    }

    /**
     * DEFECT (issue 30): both commands defaulted to one data/legate.db, so the second of agent and
     * bridge started from one folder was refused; the doctor checks the file each command opens.
     */
    @Test
    void withoutDataDirEachCommandChecksItsOwnStoreFile() {
        assertThat(doctor().store("agent").detail()).contains(Path.of("data", "agent", "legate.db").toString());
        assertThat(doctor().store("bridge").detail()).contains(Path.of("data", "bridge", "legate.db").toString());
    }

    /**
     * DEFECT (issue 30): a bare {@code legate doctor} checked only the agent. Asked whether Legate
     * can run here, it checks every command, and the bridge's group looks at every adapter: the
     * configured one can fail the bridge, the others only warn.
     */
    @Test
    void everythingIsEveryCommandsChecksWithEachAdapter() throws Exception {
        env.put("PATH", dir.toString());
        config.put("PORT", "0");
        config.put("MCP_PORT", "0");
        Map<String, List<Finding>> all = doctor(List.of(dir.resolve("nowhere"))).examineEverything();
        assertThat(all.keySet()).containsExactly("agent", "bridge", "mcp");
        assertThat(all.get("agent")).extracting(Finding::subject).contains("JDK", "task store")
                .doesNotContain("Node.js");
        assertThat(all.get("bridge")).extracting(Finding::subject, Finding::verdict).contains(
                tuple("Node.js", Verdict.FAIL), tuple("adapter claude", Verdict.FAIL), tuple("adapter codex", Verdict.WARN));
        assertThat(all.get("mcp")).extracting(Finding::subject).contains("MCP token file");

        config.put("ACP_AGENT", "codex");
        assertThat(doctor(List.of(dir.resolve("nowhere"))).examineEverything().get("bridge"))
                .extracting(Finding::subject, Finding::verdict)
                .contains(tuple("adapter codex", Verdict.FAIL), tuple("adapter claude", Verdict.WARN));
    }

    /** An adapter laid out as npm installs it under adapters/node_modules. */
    private Path claudeAdapter(String version) throws IOException {
        Path adapters = dir.resolve("adapters-" + version);
        Path pkg = Files.createDirectories(adapters.resolve("node_modules/@zed-industries/claude-agent-acp"));
        Files.createDirectories(pkg.resolve("dist"));
        Files.writeString(pkg.resolve("dist/index.js"), "");
        Files.writeString(pkg.resolve("package.json"), "{\"name\": \"@zed-industries/claude-agent-acp\", \"version\": \""
                + version + "\"}");
        return adapters;
    }

    @Test
    void theAdapterIsFoundWithItsVersionAgainstTheTestedOneAndItsLogin() throws IOException {
        // Nowhere the lookup searches: not in adapters/, not on a PATH holding nothing.
        env.put("PATH", dir.toString());
        List<Finding> missing = doctor(List.of(dir.resolve("nowhere"))).adapter();
        assertThat(missing).singleElement().satisfies(f -> {
            assertThat(f.verdict()).isEqualTo(Verdict.FAIL);
            assertThat(f.fix()).contains("adapters/install.sh");
        });
        env.put("PATH", System.getenv("PATH"));

        List<Finding> tested = doctor(List.of(claudeAdapter("0.23.1"))).adapter();
        assertThat(tested.get(0).verdict()).isEqualTo(Verdict.OK);
        assertThat(tested.get(0).detail()).contains("version 0.23.1");
        assertThat(tested.get(1).verdict()).as("no login anywhere").isEqualTo(Verdict.FAIL);
        assertThat(tested.get(1).fix()).contains("/login");

        List<Finding> other = doctor(List.of(claudeAdapter("0.20.0"))).adapter();
        assertThat(other.get(0).verdict()).isEqualTo(Verdict.WARN);
        assertThat(other.get(0).fix()).contains("tested with 0.23.1");

        Files.createDirectories(dir.resolve("home/.claude"));
        Files.writeString(dir.resolve("home/.claude/.credentials.json"), "{}");
        assertThat(doctor(List.of(claudeAdapter("0.23.1"))).adapter().get(1).verdict()).isEqualTo(Verdict.OK);
    }

    @Test
    void anApiKeyInTheConfigurationCountsAsALogin() throws IOException {
        config.put("ANTHROPIC_API_KEY", "sk-x");
        Finding login = doctor(List.of(claudeAdapter("0.23.1"))).adapter().get(1);
        assertThat(login.verdict()).isEqualTo(Verdict.OK);
        assertThat(login.detail()).contains("ANTHROPIC_API_KEY").doesNotContain("sk-x");
    }

    @Test
    void theTestedVersionsAreTheOnesTheProjectPinsForItsAdapters() throws IOException {
        String pins = Files.readString(SourceTree.resolve("adapters/package.json"));
        for (Map.Entry<String, String> e : Map.of("claude", "claude-agent-acp", "codex", "codex-acp").entrySet()) {
            Matcher m = Pattern.compile("\"@zed-industries/" + e.getValue() + "\"\\s*:\\s*\"([^\"]+)\"").matcher(pins);
            assertThat(m.find()).isTrue();
            assertThat(Doctor.TESTED_ADAPTERS.get(e.getKey())).isEqualTo(m.group(1));
        }
    }

    @Test
    void aTokenFileOthersCanReadFailsAndAPrivateOnePasses() throws IOException {
        Path token = dir.resolve(".mcp-token");
        config.put("MCP_TOKEN_FILE", token.toString());
        assertThat(doctor().mcpTokenFile().verdict()).isEqualTo(Verdict.OK);
        Files.writeString(token, "t");
        Files.setPosixFilePermissions(token, PosixFilePermissions.fromString("rw-r--r--"));
        Finding open = doctor().mcpTokenFile();
        assertThat(open.verdict()).isEqualTo(Verdict.FAIL);
        assertThat(open.fix()).isEqualTo("chmod 600 " + token);
        Files.setPosixFilePermissions(token, PosixFilePermissions.fromString("rw-------"));
        assertThat(doctor().mcpTokenFile().verdict()).isEqualTo(Verdict.OK);
    }

    @Test
    void aNamedKeyFileMustBeReadableAndASecretOnePrivate() throws IOException {
        config.put("TLS_CERT", dir.resolve("missing.pem").toString());
        Path key = dir.resolve("key.pem");
        Files.writeString(key, "k");
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-r--r--"));
        config.put("TLS_KEY", key.toString());
        List<Finding> files = doctor().keyFiles();
        assertThat(files).extracting(Finding::subject, Finding::verdict)
                .containsExactly(tuple("TLS_CERT", Verdict.FAIL), tuple("TLS_KEY", Verdict.WARN));
    }

    // README "Push notifications": a PUSH_SIGNING_KEY that cannot sign stops nothing until the first
    // delivery would; the doctor says so before the server starts.
    @Test
    void aPushSigningKeyMustBeAPrivateKeyLegateCanSignWith() throws Exception {
        Path notAKey = dir.resolve("push.pem");
        Files.writeString(notAKey, "-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n-----END PRIVATE KEY-----\n");
        Files.setPosixFilePermissions(notAKey, PosixFilePermissions.fromString("rw-------"));
        config.put("PUSH_SIGNING_KEY", notAKey.toString());
        assertThat(doctor().keyFiles()).extracting(Finding::subject, Finding::verdict)
                .containsExactly(tuple("PUSH_SIGNING_KEY", Verdict.FAIL));

        Path key = TestPki.create(Files.createDirectories(dir.resolve("pki"))).privateKey("push", "ec", false);
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));
        config.put("PUSH_SIGNING_KEY", key.toString());
        assertThat(doctor().keyFiles()).extracting(Finding::subject, Finding::verdict)
                .containsExactly(tuple("PUSH_SIGNING_KEY", Verdict.OK));
    }

    // README "Authentication": past its nextUpdate a revocation list makes the server refuse every
    // certificate of its authority, so the doctor fails an out-of-date list and warns of one due soon.
    @Test
    void clientRevocationListsMustBeCurrent() throws Exception {
        TestPki pki = TestPki.create(Files.createDirectories(dir.resolve("crl-pki")));
        config.put("A2A_CLIENT_CRL", pki.revocationList().toString());
        assertThat(doctor().keyFiles()).extracting(Finding::subject, Finding::verdict)
                .containsExactly(tuple("A2A_CLIENT_CRL", Verdict.OK));

        pki.revocationList("-crlhours", "1");
        assertThat(doctor().keyFiles()).extracting(Finding::verdict).containsExactly(Verdict.WARN);

        pki.revocationList("-crl_lastupdate", "20200101000000Z", "-crl_nextupdate", "20200102000000Z");
        List<Finding> expired = doctor().keyFiles();
        assertThat(expired).extracting(Finding::verdict).containsExactly(Verdict.FAIL);
        assertThat(expired.getFirst().detail()).contains("out of date since 2020-01-02T00:00:00Z")
                .contains("every certificate that authority issued is refused");

        config.put("A2A_CLIENT_CRL", pki.caCert().toString());
        assertThat(doctor().keyFiles()).extracting(Finding::detail).singleElement().asString()
                .contains("holds no certificate revocation list");
    }
}
