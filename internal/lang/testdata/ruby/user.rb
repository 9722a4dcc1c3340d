require 'json'
require_relative 'base'

# A user model.
# With docs.
class User < ApplicationRecord
  include Comparable

  attr_reader :name

  def initialize(name, age = 0)
    @name = name
    validate!
  end

  # Full name.
  def full_name
    "#{name} #{self.last}".strip
  end

  def self.find_by_name(name)
    where(name: name).first
  end

  class Profile
    def show
      render json: to_json
    end
  end
end

module Admin
  class Panel < Base; end

  def self.enabled?
    Config.get(:admin)
  end
end

def top_helper(x)
  puts x
end
