import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { dangerousCommand } from "./dangerous-commands.ts";

describe("dangerousCommand", () => {
  it("flags the reference patterns", () => {
    assert.equal(dangerousCommand("rm -rf /"), "deletes the filesystem root");
    assert.equal(dangerousCommand("sudo rm -fr /* && echo"), "deletes the filesystem root");
    assert.equal(dangerousCommand("rm -r -f ~"), "deletes the home directory");
    assert.equal(dangerousCommand("rm -rf $HOME/"), "deletes the home directory");
    assert.equal(dangerousCommand("dd if=/dev/zero of=/dev/sda bs=1M"), "writes to a disk device");
    assert.equal(dangerousCommand("cat x > /dev/sdb"), "writes to a disk device");
    assert.equal(dangerousCommand("format c:"), "formats a drive");
    assert.equal(dangerousCommand("del /s /q c:\\"), "deletes a whole drive");
    assert.equal(dangerousCommand("mkfs.ext4 /dev/sdc1"), "formats a filesystem");
  });

  it("leaves ordinary commands alone", () => {
    for (const command of [
      "rm -rf ./build",
      "rm -rf /tmp/x",
      "rm -rf node_modules",
      "npm run format",
      "ls /dev/sda",
      "git status",
    ]) {
      assert.equal(dangerousCommand(command), undefined, command);
    }
  });
});
