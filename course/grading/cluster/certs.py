"""The course's certificates for its Dask cluster, and the ``Security`` each side uses.

``python -m course cluster-certs DIR`` makes, with the ``cryptography`` package:

    DIR/ca.pem                          the course's own certificate authority (give to all)
    DIR/ca-key.pem                      its key: keep it with the TA, it makes more certificates
    DIR/scheduler.pem, scheduler-key.pem    for the machine running ``dask scheduler``
    DIR/worker.pem, worker-key.pem          for every machine running ``dask worker``
    DIR/client.pem, client-key.pem          for the TA's ``python -m course grade --cluster``

Dask's TLS is mutual: the scheduler, the workers and the client each check that the other
side's certificate was signed by ``ca.pem``, so a process without one of the course's
certificates cannot join the cluster, send it tasks or read its results. Keys are written
readable by their owner only (0600): a student's kernel on a worker runs as another uid and
cannot read them.
"""
import datetime
import ipaddress
import os
import socket
from pathlib import Path

ROLES = ("scheduler", "worker", "client")
DAYS = 365


def _key():
    from cryptography.hazmat.primitives.asymmetric import ec

    return ec.generate_private_key(ec.SECP256R1())


def _write(path: Path, data: bytes, private: bool = False) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if private:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.fchmod(fd, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
    else:
        path.write_bytes(data)


def _pem_key(key) -> bytes:
    from cryptography.hazmat.primitives import serialization

    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption())


def _names(hosts: list[str]):
    from cryptography import x509

    names = []
    for host in ["localhost", "127.0.0.1", socket.getfqdn(), *hosts]:
        try:
            names.append(x509.IPAddress(ipaddress.ip_address(host)))
        except ValueError:
            names.append(x509.DNSName(host))
    return list(dict.fromkeys(names))


def make_certs(folder: Path, hosts: list[str] | None = None, course: str = "tearing-the-book",
               days: int = DAYS) -> dict[str, Path]:
    """A new certificate authority in ``folder`` and a certificate signed by it for each role
    (``hosts``: names and addresses to put in them; Dask checks the authority, not the name).
    Returns role -> certificate path. An existing authority in ``folder`` is reused."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    folder = Path(folder)
    now = datetime.datetime.now(datetime.timezone.utc)
    ca_cert_path, ca_key_path = folder / "ca.pem", folder / "ca-key.pem"
    if ca_cert_path.is_file() and ca_key_path.is_file():
        ca_key = serialization.load_pem_private_key(ca_key_path.read_bytes(), None)
        ca_cert = x509.load_pem_x509_certificate(ca_cert_path.read_bytes())
    else:
        ca_key = _key()
        name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, f"{course} grading CA")])
        ca_cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
                   .public_key(ca_key.public_key()).serial_number(x509.random_serial_number())
                   .not_valid_before(now - datetime.timedelta(minutes=5))
                   .not_valid_after(now + datetime.timedelta(days=days))
                   .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
                   .add_extension(x509.KeyUsage(digital_signature=True, key_cert_sign=True,
                                                crl_sign=True, content_commitment=False,
                                                key_encipherment=False, data_encipherment=False,
                                                key_agreement=False, encipher_only=False,
                                                decipher_only=False), critical=True)
                   .sign(ca_key, hashes.SHA256()))
        _write(ca_key_path, _pem_key(ca_key), private=True)
        _write(ca_cert_path, ca_cert.public_bytes(serialization.Encoding.PEM))
    made = {}
    for role in ROLES:
        key = _key()
        cert = (x509.CertificateBuilder()
                .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME,
                                                            f"{course} {role}")]))
                .issuer_name(ca_cert.subject).public_key(key.public_key())
                .serial_number(x509.random_serial_number())
                .not_valid_before(now - datetime.timedelta(minutes=5))
                .not_valid_after(now + datetime.timedelta(days=days))
                .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
                .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH,
                                                      ExtendedKeyUsageOID.CLIENT_AUTH]),
                               critical=False)
                .add_extension(x509.SubjectAlternativeName(_names(hosts or [])), critical=False)
                .sign(ca_key, hashes.SHA256()))
        _write(folder / f"{role}-key.pem", _pem_key(key), private=True)
        _write(folder / f"{role}.pem", cert.public_bytes(serialization.Encoding.PEM))
        made[role] = folder / f"{role}.pem"
    return made


def missing(folder: Path, role: str) -> str | None:
    """Why ``folder`` cannot serve ``role``, or None."""
    needed = [folder / "ca.pem", folder / f"{role}.pem", folder / f"{role}-key.pem"]
    absent = [p.name for p in needed if not p.is_file()]
    if absent:
        return (f"{folder} has no {', '.join(absent)}: make the course's certificates with "
                f"`python -m course cluster-certs {folder}` (see docs/cluster.md)")
    return None


def security(folder: Path, role: str = "client"):
    """Dask's ``Security`` for ``role`` with the certificates in ``folder``: TLS required."""
    from distributed.security import Security

    folder = Path(folder)
    problem = missing(folder, role)
    if problem:
        raise FileNotFoundError(problem)
    return Security(tls_ca_file=str(folder / "ca.pem"),
                    **{f"tls_{role}_cert": str(folder / f"{role}.pem"),
                       f"tls_{role}_key": str(folder / f"{role}-key.pem")},
                    require_encryption=True)


def cli_options(folder: Path, role: str) -> list[str]:
    """The ``dask scheduler`` / ``dask worker`` options for ``role``'s certificates."""
    folder = Path(folder)
    return ["--tls-ca-file", str(folder / "ca.pem"), "--tls-cert", str(folder / f"{role}.pem"),
            "--tls-key", str(folder / f"{role}-key.pem")]
