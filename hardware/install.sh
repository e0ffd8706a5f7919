#!/usr/bin/env bash
# Install pegboard as a service on Raspberry Pi OS Bookworm (run from the repository, with sudo).
#
#   sudo hardware/install.sh            # install or upgrade, keep /etc/pegboard/config.toml
#   PEGBOARD_HOSTNAME=myboard sudo -E hardware/install.sh   # another name than pegboard.local
#
# Bookworm refuses system-wide pip installs (PEP 668), so pegboard lives in a venv made with
# --system-site-packages: it uses the distribution's gpiozero, lgpio and RPi.GPIO.
# Last it puts the firmware on the Pico (MicroPython already on it, plugged into the Pi),
# checks the board with a person watching, and only then enables the service.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
prefix=/opt/pegboard
hostname=${PEGBOARD_HOSTNAME:-pegboard}

[ "$(id -u)" = 0 ] || { echo "run with sudo" >&2; exit 1; }

apt-get update
apt-get install -y python3-venv python3-gpiozero python3-lgpio python3-serial avahi-daemon
# The board's voice: espeak-ng speaks, aplay plays (hardware/README.md: Audio).
apt-get install -y espeak-ng alsa-utils
# RPi.GPIO exists for Pi 1-4 only; gpiozero uses lgpio on a Pi 5.
apt-get install -y python3-rpi.gpio || true

id pegboard >/dev/null 2>&1 || useradd --system --home-dir /var/lib/pegboard --shell /usr/sbin/nologin pegboard
for group in gpio dialout spi audio; do
    getent group "$group" >/dev/null && usermod -aG "$group" pegboard
done

python3 -m venv --system-site-packages "$prefix/venv"
"$prefix/venv/bin/pip" install --upgrade "${repo}[pi]"
install -m 0644 "$repo/README.md" "$prefix/README.md"

# The service's state and working directory (lgpio makes its pipes there), also for the
# firmware and doctor commands below.
install -d -m 0755 -o pegboard -g pegboard /var/lib/pegboard
install -d -m 0755 /etc/pegboard
if [ ! -f /etc/pegboard/config.toml ]; then
    cat > /etc/pegboard/config.toml <<CONF
# pegboard configuration: see README.md. Unknown keys stop the service with a message.
[board]
driver = "serial"
pin = ""            # empty: a random PIN is printed at first start (journalctl -u pegboard)

[panel]
host = "0.0.0.0"
port = 80
CONF
fi

install -m 0644 "$repo/hardware/99-pegboard-pico.rules" /etc/udev/rules.d/
udevadm control --reload-rules && udevadm trigger
install -m 0644 "$repo/hardware/avahi/pegboard.service" /etc/avahi/services/pegboard.service
install -m 0644 "$repo/hardware/systemd/pegboard.service" /etc/systemd/system/pegboard.service

if [ "$(hostname)" != "$hostname" ]; then
    hostnamectl set-hostname "$hostname"
    sed -i "s/127.0.1.1.*/127.0.1.1\t$hostname/" /etc/hosts
fi
systemctl restart avahi-daemon
systemctl daemon-reload

# The firmware on the Pico, the check, then the service. The Pico's port and the GPIO pins
# serve one program at a time, so the service waits until the end. hardware/README.md shows
# the lines between the markers as they are, to run again by hand (a test keeps them equal).
trap 'echo "install.sh stopped before enabling the service: fix what is named above, then run it again" >&2' ERR
# guide: begin
sudo systemctl stop pegboard
cd /var/lib/pegboard
sudo -u pegboard /opt/pegboard/venv/bin/pegboard firmware install
sudo -u pegboard /opt/pegboard/venv/bin/pegboard doctor --config /etc/pegboard/config.toml
sudo systemctl enable --now pegboard
# guide: end
trap - ERR
echo "pegboard is running: open http://$hostname.local on a phone on this network"
