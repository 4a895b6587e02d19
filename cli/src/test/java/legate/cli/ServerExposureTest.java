package legate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Where a server may listen (README "Security"): loopback always; elsewhere only with a scheme or
 * --insecure (then with a warning); a wildcard never without PUBLIC_URL.
 */
class ServerExposureTest {
    private static final String PUBLIC = "https://agent.example/";

    @Test
    void loopbackNeedsNothing() {
        for (String host : new String[] {"127.0.0.1", "::1", "[::1]", "localhost"}) {
            assertThat(ServerExposure.of(host, null, false, false)).as(host).isEqualTo(new ServerExposure(null, null));
        }
    }

    @Test
    void anotherAddressNeedsASchemeOrInsecure() {
        assertThat(ServerExposure.of("0.0.0.0", PUBLIC, false, false).refusal()).contains("A2A_TOKENS_FILE");
        assertThat(ServerExposure.of("0.0.0.0", PUBLIC, true, false)).isEqualTo(new ServerExposure(null, null));
        ServerExposure insecure = ServerExposure.of("::", PUBLIC, false, true);
        assertThat(insecure.refusal()).isNull();
        assertThat(insecure.warning()).contains("WARNING", "without authentication");
    }

    @Test
    void aWildcardWithoutPublicUrlIsRefusedEvenWithAScheme() {
        for (String host : new String[] {"0.0.0.0", "::", "[::]"}) {
            assertThat(ServerExposure.of(host, null, true, true).refusal()).as(host).contains("Set PUBLIC_URL");
        }
    }
}
