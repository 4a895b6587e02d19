package legate.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * DATABASE_URL as hosting providers hand it out (libpq's URL) and as Java users write it (JDBC),
 * and the rule that the password never shows: not in {@code toString()}, not in an error.
 */
class DatabaseUrlTest {
    @Test
    void aLibpqUrlBecomesAJdbcUrlWithTheCredentialsBesideIt() {
        DatabaseUrl url = DatabaseUrl.parse("postgres://legate:s3cret@db.example.com:6543/tasks?sslmode=require");
        assertThat(url.jdbcUrl()).isEqualTo("jdbc:postgresql://db.example.com:6543/tasks?sslmode=require");
        assertThat(url.user()).isEqualTo("legate");
        assertThat(url.password()).isEqualTo("s3cret");
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', textBlock = """
            postgresql://u:p@h/db                         | jdbc:postgresql://h:5432/db          | u    | p
            postgres://h/db                               | jdbc:postgresql://h:5432/db          | ''   | ''
            postgres://u@h:1/db                           | jdbc:postgresql://h:1/db             | u    | ''
            POSTGRES://u:p@H:2/db                         | jdbc:postgresql://H:2/db             | u    | p
            postgres://us%40er:p%3Ass%2Fw%25rd@h/db       | jdbc:postgresql://h:5432/db          | us@er | p:ss/w%rd
            postgres://u:a+b@h/db                         | jdbc:postgresql://h:5432/db          | u    | a+b
            postgres://u:p@ss@h/db                        | jdbc:postgresql://h:5432/db          | u    | p@ss
            postgres://u:p@[::1]:7/db                     | jdbc:postgresql://[::1]:7/db         | u    | p
            postgres://u:p@[::1]/db                       | jdbc:postgresql://[::1]:5432/db      | u    | p
            postgres://u:p@h1,h2:6/db                     | jdbc:postgresql://h1:5432,h2:6/db    | u    | p
            postgres://u:p@/db                            | jdbc:postgresql://localhost:5432/db  | u    | p
            postgres://u:p@h                              | jdbc:postgresql://h:5432/            | u    | p
            postgres://u:p@h/my%20db                      | jdbc:postgresql://h:5432/my%20db     | u    | p
            postgres://h/db?user=q&password=x%26y&ssl=true | jdbc:postgresql://h:5432/db?ssl=true | q    | x&y
            postgres://u:p@h/db?sslmode=verify-full&sslrootcert=/a/b.crt | jdbc:postgresql://h:5432/db?sslmode=verify-full&sslrootcert=/a/b.crt | u | p
            jdbc:postgresql://h:5432/db                   | jdbc:postgresql://h:5432/db          | ''   | ''
            jdbc:postgresql://h/db?user=u&password=p&sslmode=require | jdbc:postgresql://h/db?sslmode=require | u | p
            jdbc:postgresql://h/db?password=p             | jdbc:postgresql://h/db               | ''   | p
            """)
    void everySpellingOfTheUrlIsRead(String raw, String jdbc, String user, String password) {
        DatabaseUrl url = DatabaseUrl.parse(raw);
        assertThat(url).isEqualTo(new DatabaseUrl(jdbc, user, password));
    }

    @Test
    void thePasswordNeverAppearsInTheTextForm() {
        DatabaseUrl url = DatabaseUrl.parse("postgres://legate:s3cret@db:5432/tasks");
        assertThat(url.toString()).isEqualTo("jdbc:postgresql://db:5432/tasks as legate (password set)")
                .doesNotContain("s3cret");
        assertThat(DatabaseUrl.parse("jdbc:postgresql://db/tasks?password=s3cret&user=me").toString())
                .doesNotContain("s3cret");
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', textBlock = """
            mysql://u:s3cret@h/db          | must start with postgres://
            ''                             | (it is empty)
            s3cret                         | must start with postgres://
            postgres://u:s3cret%zz@h/db    | malformed percent-encoding in its password
            postgres://u%zz:s3cret@h/db    | malformed percent-encoding in its user name
            postgres://u:s3cret@h:99999/db | port that is not a number
            postgres://u:s3cret@h:x/db     | port that is not a number
            postgres://u:s3cret@[::1/db    | IPv6 host without its closing
            """)
    void aMalformedUrlIsRefusedWithoutQuotingIt(String raw, String reason) {
        // Secure by default: the value may hold the password, so no error message repeats it.
        assertThatThrownBy(() -> DatabaseUrl.parse(raw)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(reason).message().doesNotContain("s3cret");
    }
}
